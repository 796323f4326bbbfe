/** The event kinds spotswap knows, one registry row each; each Lambda builds its registry from the rows it handles. */
import { type DetailParse, type EventDefinition, nonEmptyString, type RecognizedEvent } from './registry.ts'

/** EC2 instance ids: `i-` and 8 (old) or 17 hex digits. */
const INSTANCE_ID = /^i-[0-9a-f]{8,17}$/

const instanceIdField = (detail: Readonly<Record<string, unknown>>, field: string): DetailParse<string> => {
  const value = detail[field]
  if (typeof value !== 'string') return { ok: false, problem: `detail.${field} is missing` }
  return INSTANCE_ID.test(value)
    ? { ok: true, detail: value }
    : {
        ok: false,
        problem: `detail.${field} is not an EC2 instance id: ${JSON.stringify(value).slice(0, 64)}`,
      }
}

export const INSTANCE_ACTIONS = ['terminate', 'stop', 'hibernate'] as const
export type InstanceAction = (typeof INSTANCE_ACTIONS)[number]

export interface SpotInterruptionDetail {
  readonly instanceId: string
  /** What EC2 will do to the instance in two minutes (hibernate: right away). */
  readonly instanceAction: InstanceAction
}

export const spotInterruptionWarning: EventDefinition<'spot-interruption', SpotInterruptionDetail> = {
  kind: 'spot-interruption',
  source: 'aws.ec2',
  detailType: 'EC2 Spot Instance Interruption Warning',
  parseDetail: (detail) => {
    const instanceId = instanceIdField(detail, 'instance-id')
    if (!instanceId.ok) return instanceId
    const action = detail['instance-action']
    if (!(INSTANCE_ACTIONS as readonly unknown[]).includes(action)) {
      return { ok: false, problem: `detail.instance-action must be one of ${INSTANCE_ACTIONS.join(', ')}` }
    }
    return { ok: true, detail: { instanceId: instanceId.detail, instanceAction: action as InstanceAction } }
  },
}

export interface RebalanceRecommendationDetail {
  readonly instanceId: string
}

export const rebalanceRecommendation: EventDefinition<
  'rebalance-recommendation',
  RebalanceRecommendationDetail
> = {
  kind: 'rebalance-recommendation',
  source: 'aws.ec2',
  detailType: 'EC2 Instance Rebalance Recommendation',
  parseDetail: (detail) => {
    const instanceId = instanceIdField(detail, 'instance-id')
    return instanceId.ok ? { ok: true, detail: { instanceId: instanceId.detail } } : instanceId
  },
}

export interface InstanceLaunchSuccessfulDetail {
  readonly groupName: string
  readonly instanceId: string
}

export const instanceLaunchSuccessful: EventDefinition<
  'instance-launch-successful',
  InstanceLaunchSuccessfulDetail
> = {
  kind: 'instance-launch-successful',
  source: 'aws.autoscaling',
  detailType: 'EC2 Instance Launch Successful',
  parseDetail: (detail) => {
    const groupName = nonEmptyString(detail.AutoScalingGroupName)
    if (groupName === undefined) return { ok: false, problem: 'detail.AutoScalingGroupName is missing' }
    const instanceId = instanceIdField(detail, 'EC2InstanceId')
    return instanceId.ok ? { ok: true, detail: { groupName, instanceId: instanceId.detail } } : instanceId
  },
}

export interface GroupRunRequestDetail {
  readonly groupName: string
  /** Asks for the group back on-demand (`spotswap revert`, core/revert/). */
  readonly revert?: true
}

/**
 * spotswap's own request for a replacer run of one group, sent by the interruption handler through the
 * run-request queue (with a delay) when it replaces a member ahead of its interruption.
 */
export const groupRunRequest: EventDefinition<'group-run-request', GroupRunRequestDetail> = {
  kind: 'group-run-request',
  source: 'spotswap',
  detailType: 'Group Run Request',
  parseDetail: (detail) => {
    const groupName = nonEmptyString(detail.groupName)
    if (groupName === undefined || groupName.length > 255)
      return { ok: false, problem: 'detail.groupName is not a group name' }
    if (detail.revert !== undefined && detail.revert !== true)
      return { ok: false, problem: 'detail.revert is not true' }
    return { ok: true, detail: { groupName, ...(detail.revert === true ? { revert: true as const } : {}) } }
  },
}

/** The body of a run request; `id` tells requests apart (each is one replacer run, never deduplicated). */
export const groupRunRequestEvent = (
  id: string,
  region: string,
  groupName: string,
  now: Date,
  revert = false,
): Record<string, unknown> => ({
  id,
  source: groupRunRequest.source,
  'detail-type': groupRunRequest.detailType,
  region,
  time: now.toISOString(),
  detail: { groupName, ...(revert ? { revert: true } : {}) },
})

export interface InterruptionDeadlineDetail {
  readonly instanceId: string
}

/**
 * spotswap's own reminder, sent by the interruption handler to itself through its deadline queue (with a
 * delay) when it replaces a member ahead of its interruption: at the deadline, a member still in its group
 * leaves at once, whatever the replacer's queue for the region is doing.
 */
export const interruptionDeadline: EventDefinition<'interruption-deadline', InterruptionDeadlineDetail> = {
  kind: 'interruption-deadline',
  source: 'spotswap',
  detailType: 'Interrupted Member Deadline',
  parseDetail: (detail) => {
    const instanceId = instanceIdField(detail, 'instanceId')
    return instanceId.ok ? { ok: true, detail: { instanceId: instanceId.detail } } : instanceId
  },
}

export const interruptionDeadlineEvent = (
  region: string,
  instanceId: string,
  now: Date,
): Record<string, unknown> => ({
  id: `${instanceId}-deadline-${now.getTime()}`,
  source: interruptionDeadline.source,
  'detail-type': interruptionDeadline.detailType,
  region,
  time: now.toISOString(),
  detail: { instanceId },
})

/** An EventBridge schedule rule's tick; the detail carries nothing. */
export const scheduledEvent: EventDefinition<'scheduled', Record<string, never>> = {
  kind: 'scheduled',
  source: 'aws.events',
  detailType: 'Scheduled Event',
  parseDetail: () => ({ ok: true, detail: {} }),
}

export type SpotInterruptionEvent = RecognizedEvent<'spot-interruption', SpotInterruptionDetail>
export type RebalanceRecommendationEvent = RecognizedEvent<
  'rebalance-recommendation',
  RebalanceRecommendationDetail
>
export type InstanceLaunchSuccessfulEvent = RecognizedEvent<
  'instance-launch-successful',
  InstanceLaunchSuccessfulDetail
>
export type ScheduledEvent = RecognizedEvent<'scheduled', Record<string, never>>
