import { describe, expect, it } from 'vitest'
import { TAG_MAINTENANCE } from '../../../lambdas/core/constants.ts'
import type { MaintenanceAction } from '../../../lambdas/core/maintenance/action.ts'
import type { ScheduledEvent } from '../../../lambdas/core/maintenance/events.ts'
import { formatMaintenanceMarker, parseMaintenanceMarker } from '../../../lambdas/core/maintenance/marker.ts'
import type { GroupPlan } from '../../../lambdas/core/plan/actions.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import type { GroupMember, Instance } from '../../../lambdas/core/types.ts'
import { anInstance, config, minutesAgo, NOW, onDemandFleet, planInput } from '../../builders/world.ts'

const retirement = (instance: Instance, inMinutes = 600): ScheduledEvent => ({
  instanceId: instance.id,
  code: 'instance-retirement',
  notBefore: new Date(NOW.getTime() + inMinutes * 60_000),
})

const maintenanceOf = (plan: GroupPlan): MaintenanceAction[] =>
  plan.actions.filter((a): a is MaintenanceAction => a.kind === 'maintenance')

/** Two on-demand members, both kept for the group's minimum of 2; the first has a scheduled retirement. */
const keptForMinimum = () => {
  const fleet = onDemandFleet(2)
  const [scheduled] = fleet as [Instance, Instance]
  return { fleet, scheduled, events: new Map([[scheduled.id, retirement(scheduled)]]) }
}

const markerOn = (member: string, phase: 'raising' | 'retiring', startedMinutesAgo = 10, owner = 2) =>
  formatMaintenanceMarker({ member, ownerDesired: owner, phase, startedAt: minutesAgo(startedMinutesAgo) })

describe('planGroup with scheduled events', () => {
  it('raises desired capacity by one for an on-demand member kept for the minimum, announcing it first', () => {
    const { fleet, scheduled, events } = keptForMinimum()
    const plan = planGroup(
      planInput(fleet, { config: config({ minOnDemandNumber: 2 }), scheduledEvents: events }),
    )
    const [raise] = maintenanceOf(plan)
    expect(raise).toMatchObject({ step: 'raise', instanceId: scheduled.id, desired: 3 })
    expect(parseMaintenanceMarker(raise?.marker ?? '')).toEqual({
      member: scheduled.id,
      ownerDesired: 2,
      phase: 'raising',
      startedAt: NOW,
    })
    expect(plan.scheduled).toEqual([
      expect.objectContaining({
        instanceId: scheduled.id,
        code: 'instance-retirement',
        action: raise?.reason,
      }),
    ])
  })

  it('leaves the member to Auto Scaling when the group is at MaxSize, and says why', () => {
    const { fleet, events } = keptForMinimum()
    const plan = planGroup(
      planInput(fleet, {
        config: config({ minOnDemandNumber: 2 }),
        scheduledEvents: events,
        groupOverrides: { maxSize: 2 },
      }),
    )
    expect(maintenanceOf(plan)).toEqual([])
    expect(plan.scheduled?.[0]?.action).toMatch(/at MaxSize \(2\)/)
  })

  it('does nothing with REPLACE_SCHEDULED off, or when the events were not read', () => {
    const { fleet, events } = keptForMinimum()
    const off = planGroup(
      planInput(fleet, {
        config: config({ minOnDemandNumber: 2, replaceScheduled: false }),
        scheduledEvents: events,
      }),
    )
    expect(off.actions).toEqual([])
    expect(off.scheduled?.[0]?.action).toMatch(/REPLACE_SCHEDULED is off/)
    const unread = planGroup(planInput(fleet, { config: config({ minOnDemandNumber: 2 }) }))
    expect(unread.actions).toEqual([])
    expect(unread.scheduled).toBeUndefined()
  })

  it('never raises for a member protected from scale-in', () => {
    const { fleet, events } = keptForMinimum()
    const plan = planGroup(
      planInput(fleet, {
        config: config({ minOnDemandNumber: 2 }),
        scheduledEvents: events,
        memberOverrides: { protectedFromScaleIn: true },
      }),
    )
    expect(maintenanceOf(plan)).toEqual([])
  })

  it('waits while the group is converging: no raise beside a launch', () => {
    const fleet = onDemandFleet(3)
    const [scheduled] = fleet as [Instance]
    const plan = planGroup(
      planInput(fleet, {
        config: config({ minOnDemandNumber: 2 }),
        scheduledEvents: new Map([[scheduled.id, retirement(scheduled)]]),
      }),
    )
    expect(plan.actions.some((a) => a.kind === 'launch-spot')).toBe(true)
    expect(maintenanceOf(plan)).toEqual([])
  })

  it('replaces a spot member with a scheduled event through a swap, as one at risk', () => {
    const fleet = onDemandFleet(2)
    const spot = anInstance({ lifecycle: 'spot', type: 'm5a.large', zone: 'us-east-1b' })
    const plan = planGroup(
      planInput([...fleet, spot], {
        config: config({ minOnDemandNumber: 2 }),
        scheduledEvents: new Map([[spot.id, retirement(spot)]]),
      }),
    )
    expect(plan.actions.filter((a) => a.kind === 'launch-spot').map((a) => a.replacing)).toEqual([spot.id])
    expect(plan.scheduled?.[0]?.action).toMatch(/through a swap/)
  })
})

describe('planGroup with an open maintenance marker', () => {
  /** The raise happened: desired 3, a member Auto Scaling launched five minutes ago beside the two. */
  const raised = (newState: Partial<GroupMember> = {}) => {
    const { fleet, scheduled, events } = keptForMinimum()
    const fresh = anInstance({ launchTime: minutesAgo(5) })
    const input = planInput([...fleet, fresh], {
      config: config({ minOnDemandNumber: 2 }),
      scheduledEvents: events,
      groupOverrides: { desiredCapacity: 3, tags: { [TAG_MAINTENANCE]: markerOn(scheduled.id, 'raising') } },
    })
    const members = input.group.members.map((m) => (m.instanceId === fresh.id ? { ...m, ...newState } : m))
    return { input: { ...input, group: { ...input.group, members } }, scheduled, fresh }
  }

  it('retires the scheduled member with a decrement once the new one serves, and starts nothing else', () => {
    const { input, scheduled, fresh } = raised()
    const plan = planGroup(input)
    expect(plan.actions).toHaveLength(1)
    const [retire] = maintenanceOf(plan)
    expect(retire).toMatchObject({ step: 'retire', instanceId: scheduled.id })
    expect(retire?.reason).toContain(fresh.id)
    expect(parseMaintenanceMarker(retire?.marker ?? '')?.phase).toBe('retiring')
  })

  it('waits, and holds every launch, while the new member does not serve yet', () => {
    const { input } = raised({ lifecycleState: 'Pending' })
    expect(planGroup(input).actions).toEqual([])
  })

  it('gives the unit back when no new member served by the deadline', () => {
    const { input } = raised({ lifecycleState: 'Pending' })
    const late = new Date(NOW.getTime() + 3 * 3600_000)
    const [close] = maintenanceOf(planGroup({ ...input, now: late }))
    expect(close).toMatchObject({ step: 'close', desired: 2 })
  })

  it.each([
    ['the raise never happened (desired is the owner’s)', 'raising', 2, true, undefined],
    ['the owner changed desired capacity', 'raising', 5, true, undefined],
    ['the member left another way, its unit still held', 'raising', 3, false, 2],
    ['the retirement is done', 'retiring', 2, false, undefined],
  ] as const)('closes when %s', (_, phase, desired, memberStays, giveBackTo) => {
    const { fleet, scheduled } = keptForMinimum()
    const members = memberStays ? fleet : fleet.slice(1)
    const plan = planGroup(
      planInput(members, {
        others: [scheduled],
        config: config({ minOnDemandNumber: 2 }),
        groupOverrides: {
          desiredCapacity: desired,
          tags: { [TAG_MAINTENANCE]: markerOn(scheduled.id, phase) },
        },
      }),
    )
    const [close] = maintenanceOf(plan)
    expect(close?.step).toBe('close')
    expect(close?.desired).toBe(giveBackTo)
  })

  it('retires again when the announced retirement did not happen', () => {
    const { fleet, scheduled } = keptForMinimum()
    const fresh = anInstance({ launchTime: minutesAgo(5) })
    const plan = planGroup(
      planInput([...fleet, fresh], {
        config: config({ minOnDemandNumber: 2 }),
        groupOverrides: {
          desiredCapacity: 3,
          tags: { [TAG_MAINTENANCE]: markerOn(scheduled.id, 'retiring') },
        },
      }),
    )
    expect(maintenanceOf(plan)).toEqual([
      expect.objectContaining({ step: 'retire', instanceId: scheduled.id }),
    ])
  })

  it('drops a marker it cannot read and acts on nothing in it', () => {
    const { fleet } = keptForMinimum()
    const plan = planGroup(
      planInput(fleet, {
        config: config({ minOnDemandNumber: 2 }),
        groupOverrides: { desiredCapacity: 3, tags: { [TAG_MAINTENANCE]: 'v1 member=i-forged owner=1' } },
      }),
    )
    expect(plan.actions).toEqual([
      expect.objectContaining({ kind: 'maintenance', step: 'close', instanceId: '' }),
    ])
    expect(maintenanceOf(plan)[0]?.desired).toBeUndefined()
  })
})

describe('planGroup with an open marker on a member protected since', () => {
  it('gives the unit back and leaves the member', () => {
    const fleet = onDemandFleet(2)
    const [scheduled] = fleet as [Instance]
    const fresh = anInstance({ launchTime: minutesAgo(5) })
    const plan = planGroup(
      planInput([...fleet, fresh], {
        config: config({ minOnDemandNumber: 2 }),
        terminationProtected: new Set([scheduled.id]),
        groupOverrides: {
          desiredCapacity: 3,
          tags: { [TAG_MAINTENANCE]: markerOn(scheduled.id, 'raising') },
        },
      }),
    )
    expect(maintenanceOf(plan)).toEqual([expect.objectContaining({ step: 'close', desired: 2 })])
  })
})
