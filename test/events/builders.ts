/**
 * Real EventBridge sample events (shapes from the AWS documentation, in this folder as JSON) varied
 * with small builders, so every test starts from what AWS actually sends.
 */
import launchSuccessfulSample from './autoscaling-ec2-instance-launch-successful.json' with { type: 'json' }
import rebalanceSample from './ec2-instance-rebalance-recommendation.json' with { type: 'json' }
import interruptionSample from './ec2-spot-instance-interruption-warning.json' with { type: 'json' }
import scheduledSample from './scheduled-event.json' with { type: 'json' }
import sqsSample from './sqs-event.json' with { type: 'json' }

export const samples = {
  spotInterruption: interruptionSample,
  rebalance: rebalanceSample,
  launchSuccessful: launchSuccessfulSample,
  scheduled: scheduledSample,
  sqs: sqsSample,
} as const

export type JsonEvent = Record<string, unknown>

interface Common {
  readonly region?: string
  readonly id?: string
  readonly time?: string
  readonly account?: string
}

const clone = <T>(value: T): T => structuredClone(value)

const envelope = (sample: JsonEvent, common: Common): JsonEvent => ({
  ...clone(sample),
  ...(common.region === undefined ? {} : { region: common.region }),
  ...(common.id === undefined ? {} : { id: common.id }),
  ...(common.time === undefined ? {} : { time: common.time }),
  ...(common.account === undefined ? {} : { account: common.account }),
})

export const spotInterruptionWarning = (
  options: Common & { readonly instanceId?: string; readonly action?: string } = {},
): JsonEvent => {
  const event = envelope(interruptionSample, options)
  const instanceId = options.instanceId ?? interruptionSample.detail['instance-id']
  const region = options.region ?? interruptionSample.region
  return {
    ...event,
    resources: [`arn:aws:ec2:${region}a:instance/${instanceId}`],
    detail: { 'instance-id': instanceId, 'instance-action': options.action ?? 'terminate' },
  }
}

export const rebalanceRecommendation = (
  options: Common & { readonly instanceId?: string } = {},
): JsonEvent => {
  const event = envelope(rebalanceSample, options)
  const instanceId = options.instanceId ?? rebalanceSample.detail['instance-id']
  const region = options.region ?? rebalanceSample.region
  return {
    ...event,
    resources: [`arn:aws:ec2:${region}:${rebalanceSample.account}:instance/${instanceId}`],
    detail: { 'instance-id': instanceId },
  }
}

export const instanceLaunchSuccessful = (
  options: Common & { readonly groupName?: string; readonly instanceId?: string } = {},
): JsonEvent => {
  const event = envelope(launchSuccessfulSample, options)
  return {
    ...event,
    detail: {
      ...clone(launchSuccessfulSample.detail),
      AutoScalingGroupName: options.groupName ?? launchSuccessfulSample.detail.AutoScalingGroupName,
      EC2InstanceId: options.instanceId ?? launchSuccessfulSample.detail.EC2InstanceId,
    },
  }
}

export const scheduledEvent = (options: Common = {}): JsonEvent => envelope(scheduledSample, options)

/** The same events as an SQS-triggered invocation receives them: one record per message, body = JSON text. */
export const viaSqs = (...bodies: readonly (JsonEvent | string)[]): JsonEvent => {
  const template = sqsSample.Records[0]
  return {
    Records: bodies.map((body, index) => ({
      ...clone(template),
      messageId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })),
  }
}

/** A copy with `detail` fields replaced (undefined removes the field). */
export const withDetail = (event: JsonEvent, patch: Readonly<Record<string, unknown>>): JsonEvent => {
  const detail: Record<string, unknown> = { ...(event.detail as Record<string, unknown>), ...patch }
  for (const [key, value] of Object.entries(patch)) if (value === undefined) delete detail[key]
  return { ...event, detail }
}

/** A copy without the given top-level fields. */
export const without = (event: JsonEvent, ...fields: readonly string[]): JsonEvent =>
  Object.fromEntries(Object.entries(event).filter(([key]) => !fields.includes(key)))
