/**
 * The home region's EventBridge rules: the replacer's schedule, and one rule per event spotswap routes
 * (event-patterns.ts) to the Lambda that handles it. Each target retries as its Lambda's own
 * asynchronous invocations do, and sends what fails every retry to the failed-events queue.
 */
import { type Duration, Stack } from 'aws-cdk-lib'
import { Rule, Schedule } from 'aws-cdk-lib/aws-events'
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets'
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs'
import type { Queue } from 'aws-cdk-lib/aws-sqs'
import type { Construct } from 'constructs'
import { patternFor, ROUTED_EVENTS, SCHEDULE_RULE_NAME } from './event-patterns.ts'
import { INTERRUPTION_MAX_EVENT_AGE, INTERRUPTION_RETRY_ATTEMPTS, REPLACER_RETRY_ATTEMPTS } from './sizing.ts'

export interface HomeRulesProps {
  readonly replacer: NodejsFunction
  readonly interruptionHandler: NodejsFunction
  readonly failedEvents: Queue
  readonly schedulePeriod: Duration
  readonly scheduleMinutes: number
  /** The replacer's maximum event age: a run older than a schedule period is superseded by the next. */
  readonly replacerEventAge: Duration
}

/** Creates the rules in `scope` (so their construct ids, and the template's logical ids, stay as they were). */
export const createHomeRules = (scope: Construct, props: HomeRulesProps): Rule[] => {
  const homeRules: Rule[] = []
  const schedule = new Rule(scope, 'Schedule', {
    ruleName: SCHEDULE_RULE_NAME,
    description: `spotswap: run the replacer every ${props.scheduleMinutes} minute(s)`,
    schedule: Schedule.rate(props.schedulePeriod),
    targets: [
      new LambdaFunction(props.replacer, {
        deadLetterQueue: props.failedEvents,
        retryAttempts: REPLACER_RETRY_ATTEMPTS,
        maxEventAge: props.replacerEventAge,
      }),
    ],
  })
  homeRules.push(schedule)
  for (const event of ROUTED_EVENTS) {
    const handler = event.handler === 'replacer' ? props.replacer : props.interruptionHandler
    const rule = new Rule(scope, `On-${event.kind}`, {
      ruleName: event.ruleName,
      description: `spotswap: ${event.description}`,
      eventPattern: patternFor(event, Stack.of(scope).account),
      targets: [
        new LambdaFunction(handler, {
          deadLetterQueue: props.failedEvents,
          ...(event.handler === 'replacer'
            ? { retryAttempts: REPLACER_RETRY_ATTEMPTS, maxEventAge: props.replacerEventAge }
            : { retryAttempts: INTERRUPTION_RETRY_ATTEMPTS, maxEventAge: INTERRUPTION_MAX_EVENT_AGE }),
        }),
      ],
    })
    homeRules.push(rule)
  }
  return homeRules
}
