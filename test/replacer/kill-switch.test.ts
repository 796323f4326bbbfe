/**
 * The kill switch in the replacer, against the stateful fake: with it on, a run starts nothing (no launch,
 * attach, MaxSize raise or record), terminates what spotswap launched and will not attach, closes open
 * swaps and cleans up strays; with it hard, a run writes nothing. The writes are counted per kind.
 */
import { describe, expect, it } from 'vitest'
import { TAG_SWAP } from '../../lambdas/core/constants.ts'
import { trafficSourceKey } from '../../lambdas/core/port.ts'
import type { KillSwitch, KillSwitchMode } from '../../lambdas/core/region/kill-switch.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, spotShare, strayOf } from './support.ts'

const TG = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/0123456789abcdef'

/** A harness whose kill switch a test sets between runs; `reads` counts how often a run read it. */
const switchable = (cloud: FakeCloud) => {
  const state = { killSwitch: { mode: 'off' } as KillSwitch, reads: 0 }
  const h = harness({ 'us-east-1': cloud }, {}, undefined, {
    killSwitch: async () => {
      state.reads++
      return state.killSwitch
    },
  })
  const set = (mode: KillSwitchMode, problem?: string) => {
    state.killSwitch = problem === undefined ? { mode } : { mode, problem }
  }
  return { h, state, set }
}

/** The writes since the calls were last cleared, counted per port method. */
const writesByKind = (cloud: FakeCloud): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const call of cloud.mutations) counts[call.method] = (counts[call.method] ?? 0) + 1
  return counts
}

const spotLaunches = (cloud: FakeCloud) =>
  [...cloud.instances.values()].filter((i) => i.lifecycle === 'spot' && i.state === 'running')

describe('kill switch in the replacer', () => {
  it('on: launches nothing, reads the switch once per invocation, and reports it', async () => {
    // What a run with the switch off launches here, for the count the switch holds.
    const reference = cloudWithFleet(3)
    await switchable(reference).h.run()
    const launchesOff = writesByKind(reference).launchSpot ?? 0
    expect(launchesOff).toBeGreaterThan(0)
    const cloud = cloudWithFleet(3)
    const { h, state, set } = switchable(cloud)
    set('on')
    await h.run()
    expect(writesByKind(cloud)).toEqual({})
    expect(state.reads).toBe(1)
    expect(h.recorded.metrics).toContainEqual({
      dimensions: {},
      values: [{ name: 'KillSwitch', unit: 'Count', value: 1 }],
    })
    expect(h.recorded.metrics).toContainEqual(
      expect.objectContaining({
        dimensions: { Region: 'us-east-1' },
        values: [expect.objectContaining({ name: 'ActionsHeldByKillSwitch', value: launchesOff })],
      }),
    )
    expect(h.recorded.logs.some((l) => l.message === 'kill switch holds actions')).toBe(true)
    set('off')
    await h.run()
    expect(writesByKind(cloud).launchSpot).toBeGreaterThan(0)
  })

  it('on: terminates launches ready to attach instead of attaching them, and cleans up a stray', async () => {
    const cloud = cloudWithFleet(3)
    const { h, set } = switchable(cloud)
    await h.run()
    const launched = spotLaunches(cloud).map((i) => i.id)
    expect(launched.length).toBeGreaterThan(0)
    const stray = strayOf(cloud)
    h.advanceMinutes(6)
    set('on')
    cloud.calls.length = 0
    await h.run()
    // Per kind: one termination for the stray and one for each ready launch; nothing else.
    expect(writesByKind(cloud)).toEqual({ terminateInstances: launched.length + 1 })
    for (const id of [...launched, stray.id]) expect(cloud.instances.get(id)?.state).toBe('terminated')
    expect(spotShare(cloud)).toEqual({ spot: 0, onDemand: 3 })
    expect(cloud.group('web').tags[TAG_SWAP]).toBeUndefined()
    expect(cloud.group('web').desiredCapacity).toBe(3)
  })

  it('hard: writes nothing, strays included', async () => {
    const cloud = cloudWithFleet(3)
    const { h, set } = switchable(cloud)
    await h.run()
    const stray = strayOf(cloud)
    h.advanceMinutes(6)
    set('hard')
    cloud.calls.length = 0
    await h.run()
    expect(writesByKind(cloud)).toEqual({})
    expect(cloud.instances.get(stray.id)?.state).toBe('running')
  })

  it('an unreadable switch counts as on: nothing starts, and the problem is reported', async () => {
    const cloud = cloudWithFleet(3)
    const { h, set } = switchable(cloud)
    set('on', 'kill switch unreadable (AccessDeniedException: denied): treated as on')
    await h.run()
    expect(writesByKind(cloud)).toEqual({})
    expect(h.recorded.metrics).toContainEqual({
      dimensions: {},
      values: [
        { name: 'KillSwitch', unit: 'Count', value: 1 },
        { name: 'KillSwitchUnreadable', unit: 'Count', value: 1 },
      ],
    })
    expect(h.recorded.logs).toContainEqual(
      expect.objectContaining({ level: 'error', message: 'kill switch' }),
    )
  })

  describe('an open swap, waiting for its replacement to serve', () => {
    const waitingSwap = async () => {
      const cloud = cloudWithFleet(1, {
        trafficSources: { targetGroupArns: [TG], classicLoadBalancerNames: [], unreadable: [] },
      })
      cloud.healthSettings.set(trafficSourceKey('target-group', TG), {
        intervalSeconds: 30,
        healthyThreshold: 3,
      })
      const s = switchable(cloud)
      await s.h.run()
      s.h.advanceMinutes(6)
      await s.h.run()
      const replacement = spotLaunches(cloud)[0]?.id ?? ''
      expect(cloud.group('web').members.has(replacement)).toBe(true)
      expect(cloud.group('web').desiredCapacity).toBe(2)
      cloud.markHealthy(replacement)
      s.h.advanceSeconds(90)
      cloud.calls.length = 0
      return { cloud, ...s }
    }

    it('on: still closes, giving back the raised desired capacity', async () => {
      const { cloud, h, set } = await waitingSwap()
      set('on')
      await h.run()
      expect(writesByKind(cloud)).toEqual({
        tagGroup: 1,
        terminateInGroup: 1,
        setMaxSize: 1,
        untagGroup: 1,
      })
      expect(cloud.group('web').desiredCapacity).toBe(1)
      expect(cloud.group('web').tags[TAG_SWAP]).toBeUndefined()
      expect(spotShare(cloud)).toEqual({ spot: 1, onDemand: 0 })
    })

    it('hard: stays open, nothing written', async () => {
      const { cloud, h, set } = await waitingSwap()
      set('hard')
      await h.run()
      expect(writesByKind(cloud)).toEqual({})
      expect(cloud.group('web').desiredCapacity).toBe(2)
    })
  })
})
