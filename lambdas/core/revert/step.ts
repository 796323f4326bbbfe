/**
 * One step of a revert (marker.ts), a pure function of the marker, the group and `now`: raise desired
 * capacity by one through Auto Scaling (which launches on-demand from the group's own template), wait
 * until the new member serves, then let the oldest spot member leave with a decrement; when no spot member
 * is left, the revert is done. Every raise is announced in the marker first and bounded by a deadline: a
 * new member that never serves leaves with the unit it came with, and a raise Auto Scaling launched nothing
 * for is given back, so desired capacity is never left raised. After REVERT_MAX_RAISES such raises in a
 * row the revert stalls: nothing more is raised, and no spot member leaves, until the owner asks again.
 */
import { REVERT_MAX_RAISES } from '../constants.ts'
import { type RevertMarker, type RevertStallCause, TAG_REVERT } from './marker.ts'

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
  /** How long a new raise may wait for its member to serve before it is taken back. */
  readonly deadlineSeconds: number
}

export type RevertStep =
  /** Write `marker`, then set desired capacity to `desiredCapacity`. */
  | { readonly kind: 'raise'; readonly marker: RevertMarker; readonly desiredCapacity: number }
  /** Write `marker` (the raise's, unchanged), then set desired capacity back to `desiredCapacity`. */
  | {
      readonly kind: 'give-back'
      readonly marker: RevertMarker
      readonly desiredCapacity: number
      readonly reason: string
    }
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

type Raising = Extract<RevertMarker, { phase: 'raising' }>

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

const STALL_CAUSE: Record<RevertStallCause, string> = {
  'not-launched': 'Auto Scaling launched no member for it by its deadline',
  'not-serving': 'its new member did not serve by its deadline',
}

/** What a stalled revert says, for the plan, the summary and the log. */
export const stalledReason = (failed: number, why: RevertStallCause): string =>
  `revert-stalled: ${failed} raises in a row gave their unit back (the last: ${STALL_CAUSE[why]}); the group is left as it is. Its scaling activities say why Auto Scaling did not launch or the member did not serve; run \`spotswap revert\` again to retry`

/** `failed` raises in a row have not served: one more, or a stall once they reach the bound. */
const afterFailure = (failed: number, why: RevertStallCause, reason: string): RevertStep =>
  failed >= REVERT_MAX_RAISES
    ? { kind: 'mark', marker: { phase: 'stalled', failed, why }, reason: stalledReason(failed, why) }
    : {
        kind: 'mark',
        marker: { phase: 'requested', failed },
        reason: `${reason} (${failed} of ${REVERT_MAX_RAISES} raises in a row): raising again`,
      }

/** From a settled group (no unit of spotswap's in desired capacity): done, stalled, or the next raise. */
const nextRaise = (input: RevertInput, failed: number): RevertStep => {
  const { desiredCapacity, maxSize, members, now } = input
  if (oldestSpot(members) === undefined)
    return {
      kind: 'mark',
      marker: { phase: 'done' },
      reason: 'no spot member left: the group is all on-demand',
    }
  // Only a raise whose member did not serve leaves through a retirement with a count this high.
  if (failed >= REVERT_MAX_RAISES)
    return {
      kind: 'mark',
      marker: { phase: 'stalled', failed, why: 'not-serving' },
      reason: stalledReason(failed, 'not-serving'),
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
  const until = new Date(now.getTime() + input.deadlineSeconds * 1000)
  return {
    kind: 'raise',
    marker: {
      phase: 'raising',
      ownerDesired: desiredCapacity,
      since: now,
      until,
      ...(failed > 0 ? { failed } : {}),
    },
    desiredCapacity: desiredCapacity + 1,
  }
}

const withFailed = (failed: number | undefined) => (failed ? { failed } : {})

/** The raise is not in desired capacity: not made yet (again, within its deadline), or given back. */
const notRaised = (marker: Raising, overdue: boolean): RevertStep =>
  overdue
    ? afterFailure(
        (marker.failed ?? 0) + 1,
        'not-launched',
        'no member launched for the raise by its deadline',
      )
    : { kind: 'raise', marker, desiredCapacity: marker.ownerDesired + 1 }

const whileRaising = (input: RevertInput, marker: Raising): RevertStep => {
  const { desiredCapacity, members, now } = input
  const owner = marker.ownerDesired
  const overdue = now.getTime() > marker.until.getTime()
  if (desiredCapacity === owner) return notRaised(marker, overdue)
  if (desiredCapacity !== owner + 1)
    // Someone else resized the group: the extra unit cannot be told from theirs, so none is taken back.
    return {
      kind: 'mark',
      marker: { phase: 'requested', ...withFailed(marker.failed) },
      reason: `desired capacity changed by someone else (${owner + 1} expected, ${desiredCapacity} found): the raise is theirs now`,
    }
  const raised = raisedMember(members, marker.since)
  const spot = oldestSpot(members)
  const retiring = (step: string, failed: number | undefined): RevertMarker => ({
    phase: 'retiring',
    ownerDesired: owner,
    step,
    until: marker.until,
    ...withFailed(failed),
  })
  if (raised?.serving === true && spot !== undefined)
    return {
      kind: 'retire',
      marker: retiring(spot.instanceId, undefined),
      instanceId: spot.instanceId,
      reason: `${raised.instanceId} serves: ${spot.instanceId} leaves with the raise's unit`,
    }
  if (raised !== undefined && spot === undefined)
    // No spot member left to take the unit back with (one left another way): the raised member leaves.
    return {
      kind: 'retire',
      marker: retiring(raised.instanceId, marker.failed),
      instanceId: raised.instanceId,
      reason: `no spot member is left to retire: ${raised.instanceId} leaves with the raise's unit`,
    }
  if (raised !== undefined && overdue) {
    const failed = (marker.failed ?? 0) + 1
    return {
      kind: 'retire',
      marker: retiring(raised.instanceId, failed),
      instanceId: raised.instanceId,
      reason: `${raised.instanceId} did not serve by its deadline: it leaves with the raise's unit (${failed} of ${REVERT_MAX_RAISES} raises in a row)`,
    }
  }
  if (overdue)
    // Auto Scaling launched nothing (capacity, a broken template, a quota): the unit goes back, no one leaves.
    return {
      kind: 'give-back',
      marker,
      desiredCapacity: owner,
      reason: `Auto Scaling launched no member for the raise by its deadline: desired capacity goes back to ${owner}`,
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
    case 'stalled':
      return { kind: 'wait', reason: stalledReason(marker.failed, marker.why) }
    case 'requested':
      return nextRaise(input, marker.failed ?? 0)
    case 'raising':
      return whileRaising(input, marker)
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
        ? nextRaise(input, marker.failed ?? 0)
        : {
            kind: 'mark',
            marker: { phase: 'requested', ...withFailed(marker.failed) },
            reason: `desired capacity changed by someone else: starting over from ${desiredCapacity}`,
          }
    }
  }
}
