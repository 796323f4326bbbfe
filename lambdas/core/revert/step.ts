/**
 * One step of a revert (marker.ts), a pure function of the marker, the group and `now`: raise desired
 * capacity by one through Auto Scaling (which launches on-demand from the group's own template), wait
 * until the new member serves, then let the oldest spot member leave with a decrement; when no spot member
 * is left, the revert is done. Every raise is announced in the marker first and bounded by a deadline: a
 * new member that never serves leaves with the unit it came with, so desired capacity is never left raised.
 */
import { type RevertMarker, TAG_REVERT } from './marker.ts'

export interface RevertMember {
  readonly instanceId: string
  readonly lifecycle: 'spot' | 'on-demand'
  readonly launchTime: Date
  /** In service and healthy in every traffic source of the group (core/group/serving.ts). */
  readonly serving: boolean
}

export interface RevertInput {
  readonly marker: RevertMarker
  readonly desiredCapacity: number
  readonly maxSize: number
  /** Members in service (pending and terminating ones left out). */
  readonly members: readonly RevertMember[]
  /**
   * Whether one more unit of desired capacity launches on-demand: a launch template or configuration does;
   * a mixed-instances policy only while its OnDemandBaseCapacity is not yet met or its
   * OnDemandPercentageAboveBaseCapacity is 100 (API_InstancesDistribution).
   */
  readonly launchesOnDemand: boolean
  readonly now: Date
  /** How long a raise may wait for its member to serve before it is taken back. */
  readonly deadlineSeconds: number
}

export type RevertStep =
  /** Write `marker`, then set desired capacity to `desiredCapacity`. */
  | { readonly kind: 'raise'; readonly marker: RevertMarker; readonly desiredCapacity: number }
  /** Write `marker`, then TerminateInstanceInAutoScalingGroup(`instanceId`, decrement). */
  | {
      readonly kind: 'retire'
      readonly marker: RevertMarker
      readonly instanceId: string
      readonly reason: string
    }
  /** Write `marker` and nothing else. */
  | { readonly kind: 'mark'; readonly marker: RevertMarker; readonly reason: string }
  | { readonly kind: 'wait'; readonly reason: string }
  /** Nothing this revert can do on its own: said, and nothing written. */
  | { readonly kind: 'refuse'; readonly reason: string }

const oldestSpot = (members: readonly RevertMember[]): RevertMember | undefined =>
  members
    .filter((m) => m.lifecycle === 'spot')
    .sort(
      (a, b) => a.launchTime.getTime() - b.launchTime.getTime() || a.instanceId.localeCompare(b.instanceId),
    )[0]

/** The on-demand member the raise launched: the newest one launched since the raise was announced. */
const raisedMember = (members: readonly RevertMember[], since: Date): RevertMember | undefined =>
  members
    .filter((m) => m.lifecycle === 'on-demand' && m.launchTime.getTime() >= since.getTime())
    .sort((a, b) => b.launchTime.getTime() - a.launchTime.getTime())[0]

/** From a settled group (no unit of spotswap's in desired capacity): done, or the next raise. */
const nextRaise = (input: RevertInput): RevertStep => {
  const { desiredCapacity, maxSize, members, now } = input
  if (oldestSpot(members) === undefined)
    return {
      kind: 'mark',
      marker: { phase: 'done' },
      reason: 'no spot member left: the group is all on-demand',
    }
  if (!input.launchesOnDemand)
    return {
      kind: 'refuse',
      reason: `revert-would-launch-spot: the group's mixed-instances policy would launch spot for one more unit; set its OnDemandPercentageAboveBaseCapacity to 100 (or raise OnDemandBaseCapacity), then the revert goes on`,
    }
  if (desiredCapacity + 1 > maxSize)
    return {
      kind: 'refuse',
      reason: `revert-at-max-size: desired capacity ${desiredCapacity} is at MaxSize ${maxSize}; a serve-before-retire step needs one more`,
    }
  return {
    kind: 'raise',
    marker: { phase: 'raising', ownerDesired: desiredCapacity, since: now },
    desiredCapacity: desiredCapacity + 1,
  }
}

const whileRaising = (input: RevertInput, owner: number, since: Date): RevertStep => {
  const { desiredCapacity, members, now } = input
  const overdue = now.getTime() - since.getTime() > input.deadlineSeconds * 1000
  if (desiredCapacity === owner)
    // The run stopped between the marker and the raise, or the raise failed: again, within the deadline.
    return overdue
      ? {
          kind: 'mark',
          marker: { phase: 'requested' },
          reason: 'raise never happened by its deadline: starting over',
        }
      : {
          kind: 'raise',
          marker: { phase: 'raising', ownerDesired: owner, since },
          desiredCapacity: owner + 1,
        }
  if (desiredCapacity !== owner + 1)
    // Someone else resized the group: the extra unit cannot be told from theirs, so none is taken back.
    return {
      kind: 'mark',
      marker: { phase: 'requested' },
      reason: `desired capacity changed by someone else (${owner + 1} expected, ${desiredCapacity} found): the raise is theirs now`,
    }
  const raised = raisedMember(members, since)
  const spot = oldestSpot(members)
  if (raised?.serving === true && spot !== undefined)
    return {
      kind: 'retire',
      marker: { phase: 'retiring', ownerDesired: owner, step: spot.instanceId },
      instanceId: spot.instanceId,
      reason: `${raised.instanceId} serves: ${spot.instanceId} leaves with the raise's unit`,
    }
  // No spot member left to take the unit back with (one left another way), or a raise past its deadline:
  // the raised member leaves with the unit it came with.
  if (raised !== undefined && (spot === undefined || overdue))
    return {
      kind: 'retire',
      marker: { phase: 'retiring', ownerDesired: owner, step: raised.instanceId },
      instanceId: raised.instanceId,
      reason:
        spot === undefined
          ? `no spot member is left to retire: ${raised.instanceId} leaves with the raise's unit`
          : `${raised.instanceId} did not serve by its deadline: it leaves with the raise's unit`,
    }
  return {
    kind: 'wait',
    reason:
      raised === undefined
        ? 'the raise has not launched its member yet'
        : `${raised.instanceId} does not serve yet`,
  }
}

export const revertStep = (input: RevertInput): RevertStep => {
  const { marker, desiredCapacity, members } = input
  switch (marker.phase) {
    case 'done':
      return { kind: 'wait', reason: `reverted (${TAG_REVERT}): spotswap leaves the group alone` }
    case 'requested':
      return nextRaise(input)
    case 'raising':
      return whileRaising(input, marker.ownerDesired, marker.since)
    case 'retiring': {
      const stillIn = members.some((m) => m.instanceId === marker.step)
      // The announced step has not happened while its member is in and the unit is still held.
      if (stillIn && desiredCapacity === marker.ownerDesired + 1)
        return {
          kind: 'retire',
          marker,
          instanceId: marker.step,
          reason: `the announced step did not happen: ${marker.step} leaves now`,
        }
      if (stillIn) return { kind: 'wait', reason: `${marker.step} is leaving` }
      return desiredCapacity === marker.ownerDesired
        ? nextRaise(input)
        : {
            kind: 'mark',
            marker: { phase: 'requested' },
            reason: `desired capacity changed by someone else: starting over from ${desiredCapacity}`,
          }
    }
  }
}
