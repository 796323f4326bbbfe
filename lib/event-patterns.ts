/**
 * The EventBridge patterns spotswap subscribes to, built from the same event definitions the Lambdas
 * parse with (lambdas/core/events/definitions.ts), so a rule can never match an event the handler would not read.
 */
import type { EventPattern } from 'aws-cdk-lib/aws-events'
import {
  instanceLaunchSuccessful,
  rebalanceRecommendation,
  spotInterruptionWarning,
} from '../lambdas/core/events/definitions.ts'
import type { EventDefinition } from '../lambdas/core/events/registry.ts'

const patternOf = (definition: EventDefinition): EventPattern => ({
  source: [definition.source],
  detailType: [definition.detailType],
})

export type RoutedEventKind = 'spot-interruption' | 'rebalance-recommendation' | 'launch-successful'

export interface RoutedEvent {
  readonly kind: RoutedEventKind
  /** Source and detail type; every rule adds its account (patternFor). */
  readonly pattern: EventPattern
  /** Which Lambda handles it in the home region. */
  readonly handler: 'interruption' | 'replacer'
  /** The home rule's name; forwarding rules in other regions are named after it. */
  readonly ruleName: string
  readonly description: string
}

/**
 * Regional AWS events that must reach the home region. Rule names are fixed (not generated) so the
 * home dashboard can chart every region's forwarding rule by name; one spotswap per account is the
 * supported layout anyway, since two would fight over the same groups.
 */
export const ROUTED_EVENTS: readonly RoutedEvent[] = [
  {
    kind: 'spot-interruption',
    pattern: patternOf(spotInterruptionWarning),
    handler: 'interruption',
    ruleName: 'spotswap-spot-interruption-warning',
    description: 'EC2 Spot Instance Interruption Warning: take the instance out of its group at once',
  },
  {
    kind: 'rebalance-recommendation',
    pattern: patternOf(rebalanceRecommendation),
    handler: 'interruption',
    ruleName: 'spotswap-rebalance-recommendation',
    description:
      'EC2 Instance Rebalance Recommendation: replace the at-risk instance before it is interrupted',
  },
  {
    kind: 'launch-successful',
    pattern: patternOf(instanceLaunchSuccessful),
    handler: 'replacer',
    ruleName: 'spotswap-group-launch-successful',
    description: 'EC2 Instance Launch Successful: reconcile the group now instead of at the next tick',
  },
]

/**
 * A routed event's pattern for one account: the default bus also carries events other accounts put on it
 * (a bus policy, an organization-wide forwarder), and only this account's instances are spotswap's.
 */
export const patternFor = (event: RoutedEvent, account: string): EventPattern => ({
  ...event.pattern,
  account: [account],
})

export const forwardingRuleName = (event: RoutedEvent): string => `${event.ruleName}-forward`

export const SCHEDULE_RULE_NAME = 'spotswap-replacer-schedule'
