/**
 * Members with an EC2 scheduled event, replaced ahead, serve-before-retire. A spot member is at risk and
 * goes through the swap path (group-view.ts). An on-demand member is replaced through Auto Scaling: desired
 * capacity + 1, and once a member launched since then serves, the scheduled one leaves with a decrement.
 * One at a time per group (the marker), never above MaxSize, never beside an open swap or launches in
 * flight (their record counts desired capacity), and nothing at all on a read of events that failed.
 */
import { MAINTENANCE_DEADLINE_SECONDS, TAG_MAINTENANCE } from '../constants.ts'
import { type HealthObservation, servingOf } from '../group/serving.ts'
import type { Group, GroupMember, Instance } from '../types.ts'
import type { MaintenanceAction } from './action.ts'
import type { ScheduledEvent } from './events.ts'
import { formatMaintenanceMarker, type MaintenanceMarker, parseMaintenanceMarker } from './marker.ts'

export interface MaintenanceInput {
  readonly group: Group
  readonly now: Date
  /** Pending events by instance; undefined when not read this run. */
  readonly events: ReadonlyMap<string, ScheduledEvent> | undefined
  readonly enabled: boolean
  readonly onDemand: readonly GroupMember[]
  readonly spot: readonly GroupMember[]
  readonly detail: (id: string) => Instance | undefined
  readonly isProtected: (id: string) => boolean
  readonly health: HealthObservation | undefined
  readonly graceSeconds: number
}

/** A member with a scheduled event and what spotswap does about it, for `plan`, the summary and the log. */
export interface ScheduledMember {
  readonly instanceId: string
  readonly code: string
  readonly notBefore: string
  readonly action: string
}

export interface MaintenancePlan {
  /** Steps of an open replacement (retire, close). */
  readonly actions: readonly MaintenanceAction[]
  /** A raise to add once the rest of the plan is known: only when no swap or launch is under way. */
  readonly start: MaintenanceAction | undefined
  /** A marker stands: no launch or swap starts in the group while it does. */
  readonly holds: boolean
  /** The member the standing marker replaces ahead; undefined without a marker or with an unreadable one. */
  readonly replacing: string | undefined
  readonly awaitingHealth: readonly string[]
  readonly scheduled: readonly ScheduledMember[]
}

const NOTHING: MaintenancePlan = {
  actions: [],
  start: undefined,
  holds: false,
  replacing: undefined,
  awaitingHealth: [],
  scheduled: [],
}

const close = (group: Group, marker: MaintenanceMarker, reason: string, giveBack: boolean) =>
  ({
    kind: 'maintenance',
    group: group.name,
    step: 'close',
    instanceId: marker.member,
    ...(giveBack ? { desired: marker.ownerDesired } : {}),
    reason,
  }) as const satisfies MaintenanceAction

const inGroup = (group: Group, id: string): GroupMember | undefined =>
  group.members.find((m) => m.instanceId === id && !m.lifecycleState.startsWith('Terminating'))

/** Members Auto Scaling launched since the raise, other than the scheduled one. */
const launchedSince = (input: MaintenanceInput, marker: MaintenanceMarker): GroupMember[] =>
  input.group.members.filter((m) => {
    const launched = input.detail(m.instanceId)?.launchTime
    return m.instanceId !== marker.member && launched !== undefined && launched >= marker.startedAt
  })

/** The marker's next step, judged against desired capacity as it is now. */
const continueMarker = (input: MaintenanceInput, marker: MaintenanceMarker): MaintenancePlan => {
  const { group, now } = input
  const desired = group.desiredCapacity
  const raised = marker.ownerDesired + 1
  const member = inGroup(group, marker.member)
  const base = { ...NOTHING, holds: true, replacing: marker.member }
  if (desired !== raised) {
    const why =
      desired === marker.ownerDesired
        ? member === undefined || marker.phase === 'retiring'
          ? 'done: the member left and desired capacity is the owner’s again'
          : 'the raise did not happen (desired capacity is still the owner’s): dropped, nothing raised again this run'
        : `desired capacity is ${desired}, neither ${marker.ownerDesired} nor ${raised}: the owner changed it, and it stands`
    return { ...base, actions: [close(group, marker, why, false)] }
  }
  if (member === undefined)
    return {
      ...base,
      actions: [
        close(group, marker, `${marker.member} left another way: the raised unit is given back`, true),
      ],
    }
  if (input.isProtected(marker.member))
    return {
      ...base,
      actions: [
        close(
          group,
          marker,
          `${marker.member} is protected now: it stays, the raised unit is given back`,
          true,
        ),
      ],
    }
  if (marker.phase === 'retiring')
    return { ...base, actions: [retire(group, marker, 'the announced retirement did not happen: done now')] }
  const fresh = launchedSince(input, marker)
  const serving = fresh.find((m) => servingOf(group, m.instanceId, input.health).serving)
  if (serving !== undefined)
    return { ...base, actions: [retire(group, marker, `${serving.instanceId} serves in its place`)] }
  const deadline = marker.startedAt.getTime() + (input.graceSeconds + MAINTENANCE_DEADLINE_SECONDS) * 1000
  if (now.getTime() >= deadline)
    return {
      ...base,
      actions: [
        close(group, marker, 'no new member served by the deadline: the raised unit is given back', true),
      ],
    }
  return {
    ...base,
    awaitingHealth: fresh.filter((m) => m.lifecycleState === 'InService').map((m) => m.instanceId),
  }
}

const retire = (group: Group, marker: MaintenanceMarker, reason: string): MaintenanceAction => ({
  kind: 'maintenance',
  group: group.name,
  step: 'retire',
  instanceId: marker.member,
  marker: formatMaintenanceMarker({ ...marker, phase: 'retiring' }),
  reason,
})

/** What spotswap does about one on-demand member's event when no replacement is open. */
const onDemandAction = (input: MaintenanceInput, member: GroupMember): string | MaintenanceAction => {
  const { group } = input
  if (member.protectedFromScaleIn || input.isProtected(member.instanceId))
    return 'left alone: protected (Auto Scaling replaces it once EC2 has acted)'
  if (group.desiredCapacity >= group.maxSize)
    return `left alone: the group is at MaxSize (${group.maxSize}), so no member can be added first (Auto Scaling replaces it once EC2 has acted)`
  return {
    kind: 'maintenance',
    group: group.name,
    step: 'raise',
    instanceId: member.instanceId,
    marker: formatMaintenanceMarker({
      member: member.instanceId,
      ownerDesired: group.desiredCapacity,
      phase: 'raising',
      startedAt: input.now,
    }),
    desired: group.desiredCapacity + 1,
    reason: 'desired capacity raised by one: it leaves once the new member serves',
  }
}

const describe = (event: ScheduledEvent, action: string): ScheduledMember => ({
  instanceId: event.instanceId,
  code: event.code,
  notBefore: event.notBefore.toISOString(),
  action,
})

/** The group's scheduled members, the open replacement's next step, or the one to start. */
export const planMaintenance = (input: MaintenanceInput): MaintenancePlan => {
  const raw = input.group.tags[TAG_MAINTENANCE]
  const marker = raw === undefined ? undefined : parseMaintenanceMarker(raw)
  const open: MaintenancePlan =
    raw === undefined
      ? NOTHING
      : marker === undefined
        ? {
            ...NOTHING,
            holds: true,
            actions: [
              {
                kind: 'maintenance',
                group: input.group.name,
                step: 'close',
                instanceId: '',
                reason: `unreadable marker "${raw}": dropped, nothing done on it`,
              },
            ],
          }
        : continueMarker(input, marker)
  const events = input.events
  if (events === undefined || events.size === 0) return open
  const scheduled: ScheduledMember[] = []
  // Spot members with one are at risk (member-roles.ts): replaced like those, through a swap.
  for (const member of input.spot) {
    const event = events.get(member.instanceId)
    if (event === undefined || !input.enabled) continue
    scheduled.push(describe(event, 'replaced ahead through a swap, as a spot member at risk'))
  }
  let start: MaintenanceAction | undefined
  for (const member of input.onDemand) {
    const event = events.get(member.instanceId)
    if (event === undefined) continue
    if (!input.enabled) {
      scheduled.push(describe(event, 'left alone: REPLACE_SCHEDULED is off'))
      continue
    }
    if (marker?.member === member.instanceId) {
      scheduled.push(describe(event, `being replaced ahead (${marker.phase})`))
      continue
    }
    if (open.holds || start !== undefined) {
      scheduled.push(describe(event, 'waits: one replacement ahead at a time in a group'))
      continue
    }
    const action = onDemandAction(input, member)
    if (typeof action === 'string') scheduled.push(describe(event, action))
    else {
      start = action
      scheduled.push(describe(event, action.reason))
    }
  }
  return { ...open, start, scheduled }
}
