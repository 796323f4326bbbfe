/**
 * Members with an EC2 scheduled event, through the replacer Lambda against a FakeCloud: an on-demand member
 * kept for the minimum is replaced ahead through Auto Scaling (desired + 1, then it leaves with a decrement
 * once its successor serves); a failed read of the events changes nothing.
 */
import { describe, expect, it } from 'vitest'
import { TAG_MAINTENANCE } from '../../lambdas/core/constants.ts'
import type { ScheduledMember } from '../../lambdas/core/maintenance/plan.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import type { KillSwitch, KillSwitchMode } from '../../lambdas/core/region/kill-switch.ts'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import { awsError } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, START } from './support.ts'

const ENV = { MIN_ON_DEMAND_NUMBER: '2' }

/** Two on-demand members kept for the minimum, MaxSize 4; EC2 retires the first a day from now. */
const scheduledFleet = () => {
  const cloud = cloudWithFleet(2, { maxSize: 4 })
  const [scheduled, other] = [...cloud.group('web').members.keys()] as [string, string]
  cloud.scheduled = [
    { instanceId: scheduled, code: 'instance-retirement', notBefore: new Date(START.getTime() + 86_400_000) },
  ]
  return { cloud, scheduled, other }
}

const scheduledOf = (summary: ReplacerSummary): ScheduledMember[] =>
  (summary.regions[0]?.groups?.[0]?.scheduled ?? []) as ScheduledMember[]

const writes = (cloud: ReturnType<typeof cloudWithFleet>) => cloud.mutations.map((c) => [c.method, ...c.args])

describe('replacing a member ahead of its scheduled event', () => {
  it('raises desired capacity, waits for the new member to serve, then retires the scheduled one', async () => {
    const { cloud, scheduled } = scheduledFleet()
    const { run, advanceMinutes } = harness({ 'us-east-1': cloud }, ENV)
    const first = (await run()) as ReplacerSummary
    expect(writes(cloud)).toEqual([
      [
        'tagGroup',
        'web',
        { [TAG_MAINTENANCE]: expect.stringContaining(`member=${scheduled} owner=2 phase=raising`) },
      ],
      ['setDesiredCapacity', 'web', 3],
    ])
    expect(scheduledOf(first)).toEqual([
      expect.objectContaining({ instanceId: scheduled, code: 'instance-retirement' }),
    ])
    const fresh = [...cloud.group('web').members].find(([, state]) => state === 'Pending')?.[0] as string
    advanceMinutes(5)
    await run()
    expect(cloud.mutations).toHaveLength(2)
    cloud.group('web').members.set(fresh, 'InService')
    advanceMinutes(5)
    await run()
    expect(writes(cloud).slice(2)).toEqual([
      ['tagGroup', 'web', { [TAG_MAINTENANCE]: expect.stringContaining('phase=retiring') }],
      ['terminateInGroup', scheduled, true],
    ])
    cloud.scheduled = []
    advanceMinutes(5)
    await run()
    expect(writes(cloud).slice(4)).toEqual([['untagGroup', 'web', [TAG_MAINTENANCE]]])
    expect(cloud.group('web').desiredCapacity).toBe(2)
    expect(cloud.group('web').tags[TAG_MAINTENANCE]).toBeUndefined()
  })

  it('gives every on-demand member a reason while the replacement ahead is open', async () => {
    const { cloud, scheduled, other } = scheduledFleet()
    const h = harness({ 'us-east-1': cloud }, ENV)
    await h.run()
    h.advanceMinutes(5)
    const open = (await h.run()) as ReplacerSummary
    const held = (open.regions[0]?.groups?.[0]?.stillOnDemand ?? []) as { instanceId: string; code: string }[]
    const statuses = new Map(held.map((s) => [s.instanceId, s.code]))
    expect(statuses.get(other)).toBe('scheduled-replacement-open')
    const said = h.recorded.logs
      .filter((l) => l.message === 'still on-demand')
      .map((l) => [l.attributes?.instanceId, l.attributes?.code, l.attributes?.detail])
    expect(said).toContainEqual([
      other,
      'scheduled-replacement-open',
      `${scheduled} is being replaced ahead of its scheduled event: no launch or swap starts beside it`,
    ])
    expect(said.map(([, code]) => code)).not.toContain('unexplained')
  })

  it('never retires a member on a maintenance marker someone else wrote (no MAC): it is absent and reported', async () => {
    const { cloud, scheduled } = scheduledFleet()
    // A planted raise in its retiring phase, as if desired 2 were the owner's 1 plus spotswap's raise.
    cloud.group('web').tags = {
      ...cloud.group('web').tags,
      [TAG_MAINTENANCE]: `v1 member=${scheduled} owner=1 phase=retiring started=${START.toISOString()}`,
    }
    const { run, recorded } = harness({ 'us-east-1': cloud }, ENV)
    await run()
    expect(writes(cloud).filter(([method]) => method === 'terminateInGroup')).toEqual([])
    expect(cloud.group('web').members.has(scheduled)).toBe(true)
    const names = recorded.metrics.flatMap((m) => m.values.map((v) => v.name))
    expect(names).toContain(Metric.ForgedMarkers)
  })

  it('writes nothing when the events could not be read, and says so in a metric', async () => {
    const { cloud } = scheduledFleet()
    cloud.failNext('scheduledEvents', awsError('UnauthorizedOperation', 403, 'not allowed'))
    const { run, recorded } = harness({ 'us-east-1': cloud }, ENV)
    await run()
    expect(cloud.mutations).toEqual([])
    const names = recorded.metrics.flatMap((m) => m.values.map((v) => v.name))
    expect(names).toContain(Metric.ScheduledEventsUnreadable)
  })

  it('leaves a group at MaxSize alone: EC2 carries out the event and Auto Scaling replaces the member', async () => {
    const { cloud } = scheduledFleet()
    cloud.group('web').maxSize = 2
    const { run } = harness({ 'us-east-1': cloud }, ENV)
    const summary = (await run()) as ReplacerSummary
    expect(cloud.mutations).toEqual([])
    expect(scheduledOf(summary)[0]?.action).toMatch(/MaxSize/)
  })
})

describe('a replacement ahead of a scheduled event under the kill switch', () => {
  /** The fleet with a switch the test sets between runs. */
  const switchable = () => {
    const fleet = scheduledFleet()
    const state = { killSwitch: { mode: 'off' } as KillSwitch }
    const h = harness({ 'us-east-1': fleet.cloud }, ENV, undefined, {
      killSwitch: async () => state.killSwitch,
    })
    const set = (mode: KillSwitchMode) => {
      state.killSwitch = { mode }
    }
    return { ...fleet, h, set }
  }

  /** Raised with the switch off; the member Auto Scaling launched for it now serves. */
  const raised = async () => {
    const s = switchable()
    await s.h.run()
    expect(s.cloud.group('web').desiredCapacity).toBe(3)
    const fresh = [...s.cloud.group('web').members].find(([, state]) => state === 'Pending')?.[0] as string
    s.cloud.group('web').members.set(fresh, 'InService')
    s.h.advanceMinutes(5)
    s.cloud.calls.length = 0
    return s
  }

  it('on: starts none (the raise is held)', async () => {
    const { cloud, h, set } = switchable()
    set('on')
    await h.run()
    expect(writes(cloud)).toEqual([])
    expect(cloud.group('web').desiredCapacity).toBe(2)
  })

  it('on: finishes an open one, the member retiring and the marker going, desired capacity back to the owner’s', async () => {
    const { cloud, h, set, scheduled } = await raised()
    set('on')
    await h.run()
    expect(writes(cloud)).toEqual([
      ['tagGroup', 'web', { [TAG_MAINTENANCE]: expect.stringContaining('phase=retiring') }],
      ['terminateInGroup', scheduled, true],
    ])
    cloud.scheduled = []
    h.advanceMinutes(5)
    await h.run()
    expect(writes(cloud).slice(2)).toEqual([['untagGroup', 'web', [TAG_MAINTENANCE]]])
    expect(cloud.group('web').desiredCapacity).toBe(2)
    expect(cloud.group('web').tags[TAG_MAINTENANCE]).toBeUndefined()
  })

  it('on: gives back the raised unit when the scheduled member left another way', async () => {
    const { cloud, h, set, scheduled } = await raised()
    cloud.group('web').members.delete(scheduled)
    set('on')
    await h.run()
    expect(writes(cloud)).toEqual([
      ['setDesiredCapacity', 'web', 2],
      ['untagGroup', 'web', [TAG_MAINTENANCE]],
    ])
  })

  it('hard: writes nothing, the replacement staying open', async () => {
    const { cloud, h, set } = await raised()
    set('hard')
    await h.run()
    expect(writes(cloud)).toEqual([])
    expect(cloud.group('web').desiredCapacity).toBe(3)
  })
})
