/**
 * EventBridge delivers AWS events only in the region where they happen. In every covered region other
 * than the home region, this construct forwards the events spotswap reacts to onto the home region's
 * default event bus, where the home rules route them to the Lambdas. Forwarded events keep their
 * `region` field, so the handlers act in the region the event came from.
 */
import { Stack, Token } from 'aws-cdk-lib'
import { EventBus, Rule } from 'aws-cdk-lib/aws-events'
import { EventBus as EventBusTarget } from 'aws-cdk-lib/aws-events-targets'
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam'
import type { Queue } from 'aws-cdk-lib/aws-sqs'
import { Construct } from 'constructs'
import { forwardingRuleName, patternFor, ROUTED_EVENTS } from './event-patterns.ts'
import { acceptMessagesOnlyFrom, createFailedEventsQueue } from './queues.ts'

/** Named, so the home dashboard can chart every region's undelivered events without a cross-region reference. */
export const UNDELIVERED_EVENTS_QUEUE_NAME = 'spotswap-undelivered-events'

export interface SpotSwapEventForwarderProps {
  /** The region where the SpotSwap construct (and its Lambdas) is deployed. */
  readonly homeRegion: string
}

export class SpotSwapEventForwarder extends Construct {
  readonly rules: Rule[] = []
  /** Events EventBridge could not deliver to the home region after all retries (24 hours). */
  readonly undeliveredEvents: Queue

  constructor(scope: Construct, id: string, props: SpotSwapEventForwarderProps) {
    super(scope, id)
    const stack = Stack.of(this)
    if (!Token.isUnresolved(stack.region) && stack.region === props.homeRegion) {
      throw new Error(
        `the home region ${props.homeRegion} receives its events directly; do not forward them to itself`,
      )
    }
    const homeBus = EventBus.fromEventBusArn(
      this,
      'HomeEventBus',
      stack.formatArn({
        service: 'events',
        region: props.homeRegion,
        resource: 'event-bus',
        resourceName: 'default',
      }),
    )
    // A target's dead-letter queue must live in the rule's region, so each region keeps its own.
    this.undeliveredEvents = createFailedEventsQueue(
      this,
      'UndeliveredEvents',
      'the forwarding rules (charted per region on the home dashboard)',
      UNDELIVERED_EVENTS_QUEUE_NAME,
    )
    const role = new Role(this, 'ForwardingRole', {
      // EventBridge supports aws:SourceAccount in a role's trust policy: only this account's rules may use it.
      assumedBy: new ServicePrincipal('events.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
      description: `spotswap: forward spot and Auto Scaling events to ${props.homeRegion}`,
    })
    for (const event of ROUTED_EVENTS) {
      this.rules.push(
        new Rule(this, `Forward-${event.kind}`, {
          ruleName: forwardingRuleName(event),
          description: `spotswap: forward to ${props.homeRegion}. ${event.description}`,
          eventPattern: patternFor(event, stack.account),
          targets: [new EventBusTarget(homeBus, { role, deadLetterQueue: this.undeliveredEvents })],
        }),
      )
    }
    acceptMessagesOnlyFrom(this.undeliveredEvents, { rules: this.rules })
  }
}
