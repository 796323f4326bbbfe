/**
 * The planner's hook for a revert (step.ts): while the group carries a believed `spotswap:revert` marker,
 * no swap or launch starts in it (a `reverting` skip), and in a run with nothing else to do the revert
 * takes its next step. Once done, the group is skipped as `reverted` until its owner removes the tag; once
 * stalled (step.ts), as `revert-stalled` until the owner asks again.
 */
import { REVERT_DEADLINE_SECONDS, TAG_MAINTENANCE } from '../constants.ts'
import { type HealthObservation, servingOf } from '../group/serving.ts'
import type { GroupSkip } from '../plan/reasons.ts'
import type { Group, Instance } from '../types.ts'
import type { RevertAction } from './action.ts'
import { formatRevertMarker, readRevertMarker, TAG_REVERT } from './marker.ts'
import { type RevertMember, type RevertStep, revertStep, stalledReason } from './step.ts'

export interface RevertPlanInput {
  readonly group: Group
  readonly now: Date
  readonly detail: (id: string) => Instance | undefined
  readonly isProtected: (id: string) => boolean
  readonly health: HealthObservation | undefined
  readonly graceSeconds: number
}

export interface RevertPlan {
  /** Holds new swaps and launches in the group; undefined when the group is not reverting. */
  readonly skip: GroupSkip | undefined
  /** The step to take in a run with nothing else to do. */
  readonly actions: readonly RevertAction[]
  /** Members in service whose load-balancer health the step waits on (read, then planned again). */
  readonly awaitingHealth?: readonly string[]
}

const NOT_REVERTING: RevertPlan = { skip: undefined, actions: [] }

/** The raised member's health, while the step waits for it to serve and it has not been read. */
const healthWanted = (
  input: RevertPlanInput,
  step: RevertStep,
  members: readonly RevertMember[],
): string[] => {
  if (step.kind !== 'wait' || input.health !== undefined) return []
  const read = readRevertMarker(input.group.tags)
  if (read.kind !== 'read' || read.marker.phase !== 'raising') return []
  const since = read.marker.since.getTime()
  const inService = (id: string) =>
    input.group.members.some((m) => m.instanceId === id && m.lifecycleState === 'InService')
  return members
    .filter((m) => m.lifecycle === 'on-demand' && m.launchTime.getTime() >= since && inService(m.instanceId))
    .map((m) => m.instanceId)
}

/**
 * Whether one more unit launches on-demand: a template or configuration does; a mixed-instances policy
 * only while its base is not met or above-base is all on-demand
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_InstancesDistribution.html).
 */
const launchesOnDemand = (group: Group): boolean => {
  const policy = group.mixedInstancesPolicy
  if (policy === undefined) return true
  return (
    policy.onDemandPercentageAboveBaseCapacity === 100 ||
    group.desiredCapacity + 1 <= policy.onDemandBaseCapacity
  )
}

/** Members that stay (leaving ones left out), with what the step needs; undefined when a detail is unread. */
const membersOf = (input: RevertPlanInput): RevertMember[] | undefined => {
  const members: RevertMember[] = []
  for (const member of input.group.members) {
    if (member.lifecycleState.startsWith('Terminating') || member.lifecycleState.startsWith('Detach'))
      continue
    const instance = input.detail(member.instanceId)
    if (instance === undefined) return undefined
    members.push({
      instanceId: member.instanceId,
      lifecycle: instance.lifecycle === 'spot' ? 'spot' : 'on-demand',
      launchTime: instance.launchTime,
      serving: servingOf(input.group, member.instanceId, input.health).serving,
    })
  }
  return members
}

const actionOf = (group: string, step: RevertStep): RevertAction | undefined => {
  switch (step.kind) {
    case 'raise':
      return {
        kind: 'revert',
        group,
        step: 'raise',
        marker: formatRevertMarker(step.marker),
        desired: step.desiredCapacity,
        reason: `desired capacity raised to ${step.desiredCapacity}: a spot member leaves once the new on-demand member serves`,
      }
    case 'retire':
      return {
        kind: 'revert',
        group,
        step: 'retire',
        marker: formatRevertMarker(step.marker),
        instanceId: step.instanceId,
        reason: step.reason,
      }
    case 'give-back':
      return {
        kind: 'revert',
        group,
        step: 'give-back',
        marker: formatRevertMarker(step.marker),
        desired: step.desiredCapacity,
        reason: step.reason,
      }
    case 'mark':
      return {
        kind: 'revert',
        group,
        step: 'mark',
        marker: formatRevertMarker(step.marker),
        reason: step.reason,
      }
    default:
      return undefined
  }
}

const reverting = (detail: string): GroupSkip => ({ code: 'reverting', detail })

/** The next step of the group's revert, or nothing when it has no believed marker. */
export const planRevert = (input: RevertPlanInput): RevertPlan => {
  const { group } = input
  const read = readRevertMarker(group.tags)
  if (read.kind === 'none') return NOT_REVERTING
  if (read.kind === 'unreadable')
    return {
      skip: reverting(`${TAG_REVERT} "${read.raw}" is not a marker this version reads: nothing done on it`),
      actions: [],
    }
  if (read.marker.phase === 'done')
    return {
      skip: {
        code: 'reverted',
        detail: `${TAG_REVERT} is done: spotswap leaves the group alone; remove the tag to hand it back`,
      },
      actions: [],
    }
  if (read.marker.phase === 'stalled')
    return {
      skip: { code: 'revert-stalled', detail: stalledReason(read.marker.failed, read.marker.why) },
      actions: [],
    }
  // A replacement ahead of a scheduled event finishes first (it holds new launches itself).
  if (group.tags[TAG_MAINTENANCE] !== undefined) return NOT_REVERTING
  const all = membersOf(input)
  if (all === undefined)
    return { skip: reverting('a member’s details are unread: the next run steps'), actions: [] }
  // A protected member is never touched: the revert goes on around it, and cannot finish while it stays.
  const members = all.filter((m) => m.lifecycle === 'on-demand' || !input.isProtected(m.instanceId))
  const step = revertStep({
    marker: read.marker,
    desiredCapacity: group.desiredCapacity,
    maxSize: group.maxSize,
    members,
    launchesOnDemand: launchesOnDemand(group),
    now: input.now,
    deadlineSeconds: input.graceSeconds + REVERT_DEADLINE_SECONDS,
  })
  const protectedSpot = all.filter((m) => m.lifecycle === 'spot' && input.isProtected(m.instanceId))
  if (step.kind === 'mark' && step.marker.phase === 'done' && protectedSpot.length > 0)
    return {
      skip: reverting(
        `revert-member-protected: ${protectedSpot.map((m) => m.instanceId).join(', ')} protected: the revert finishes once the protection is removed`,
      ),
      actions: [],
    }
  const action = actionOf(group.name, step)
  const awaitingHealth = healthWanted(input, step, members)
  return {
    skip: reverting(action?.reason ?? ('reason' in step ? step.reason : step.kind)),
    actions: action === undefined ? [] : [action],
    ...(awaitingHealth.length > 0 ? { awaitingHealth } : {}),
  }
}
