/**
 * The eighth invariant (issue 16): an on-demand member above its group's minimum has progress or a reason
 * the simulator confirms from its own state within 3 schedule periods plus the grace period.
 */
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { TAG_NO_SPOT_CAPACITY_UNTIL } from '../../lambdas/core/constants.ts'
import type { OnDemandCode, OnDemandStatus } from '../../lambdas/core/plan/reasons.ts'
import { LivenessWatch } from '../../tools/sim/liveness.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import { group, launchSpotFor, parse, REGION, rawScenario, testWorld } from './support.ts'

const { config } = parseGlobalConfig({ SCHEDULE_MINUTES: '5' })
const MINUTE = 60_000

/** A group of 3 on-demand members (grace 300 s), and a watch told `code` for each of them at every tick. */
const watched = (code: OnDemandCode, groupOverrides: Record<string, unknown> = {}) => {
  const sim = testWorld(rawScenario([group('web', { healthCheckGracePeriod: 300, ...groupOverrides })]))
  const watch = new LivenessWatch(sim.world, config)
  const tell = (): void =>
    watch.report(
      REGION,
      'web',
      sim.members('web').map(
        (m): OnDemandStatus => ({
          instanceId: m.id,
          type: m.type,
          zone: m.zone,
          code,
          detail: '',
          progress: false,
        }),
      ),
    )
  /** Ticks every 5 minutes for `minutes`, returning the violations. */
  const run = async (minutes: number, failed: ReadonlySet<string> = new Set()) => {
    const found = []
    for (let t = 0; t <= minutes; t += 5) {
      tell()
      found.push(...watch.check(failed))
      await sim.advance(5 * MINUTE)
    }
    return found
  }
  return { sim, run }
}

describe('the liveness invariant', () => {
  it('flags each member whose reason it cannot confirm, once, after 3 periods plus the grace period', async () => {
    // Said protected, and none is.
    const { run } = watched('protected-from-scale-in')
    // 15 min + 300 s = 20 min: at 20 min the member has waited exactly that long, at 25 min longer.
    expect(await run(20)).toEqual([])
    const violations = await run(60)
    expect(violations.map((v) => v.invariant)).toEqual(Array(3).fill('stalled-on-demand'))
    expect(violations[0]?.detail).toMatch(
      /had neither progress nor a true reason for 2\d min; last said: protected-from-scale-in/,
    )
  })

  it('flags a member the engine cannot explain at the first tick, once, whatever the minimum', async () => {
    const all = { tags: { 'spot-enabled': 'true', autospotting_min_on_demand_number: '3' } }
    for (const overrides of [{}, all]) {
      const { run } = watched('unexplained', overrides)
      const violations = await run(5)
      expect(violations.map((v) => v.detail)).toEqual(
        Array(3).fill(expect.stringMatching(/^i-\w+ \(on-demand\) is unexplained: /)),
      )
      expect(await run(60)).toEqual([])
    }
  })

  it('takes a failed region run as a reason: AWS errors leave the last statuses standing', async () => {
    const { run } = watched('unexplained')
    expect(await run(60, new Set([REGION]))).toEqual([])
  })

  it('believes `protected-from-scale-in` only of a protected member', async () => {
    expect(await watched('protected-from-scale-in', { protectedFromScaleIn: 3 }).run(60)).toEqual([])
    expect(await watched('protected-from-scale-in').run(60)).toHaveLength(3)
  })

  it('believes a capacity back-off only before its end', async () => {
    const { sim, run } = watched('spot-capacity-backoff')
    const until = new Date(sim.world.clock.now + 30 * MINUTE).toISOString()
    for (const member of sim.members('web')) member.tags[TAG_NO_SPOT_CAPACITY_UNTIL] = until
    // Believed for 30 min, then 20 more without a true reason.
    expect(await run(45)).toEqual([])
    expect(await run(10)).toHaveLength(3)
  })

  it('believes `replacement-terminated` only once a spot instance launched for the member is gone', async () => {
    /** Launches one spot instance for each member (spot m5.large is not offered in us-east-1a). */
    const launchForEach = async (world: ReturnType<typeof watched>) => {
      const cloud = world.sim.cloud()
      const launched: string[] = []
      for (const member of world.sim.members('web')) {
        const result = await launchSpotFor(
          cloud,
          'web',
          'm5.large',
          'us-east-1b',
          `t-${member.id}`,
          member.id,
        )
        if (result.ok) launched.push(result.instanceId)
      }
      expect(launched).toHaveLength(3)
      return { cloud, launched }
    }
    // Still running: the reason is not true, and the members are flagged.
    const alive = watched('replacement-terminated')
    await launchForEach(alive)
    expect(await alive.run(60)).toHaveLength(3)
    const gone = watched('replacement-terminated')
    const { cloud, launched } = await launchForEach(gone)
    await cloud.terminateInstances(launched)
    expect(await gone.run(60)).toEqual([])
  })

  it('believes `no-compatible-spot-type` only where the true prices leave no candidate', async () => {
    expect(await watched('no-compatible-spot-type').run(60)).toHaveLength(3)
    expect(
      await watched('no-compatible-spot-type', {
        tags: { 'spot-enabled': 'true', autospotting_disallowed_instance_types: '*' },
      }).run(60),
    ).toEqual([])
  })

  it('believes `on-demand-minimum` for no more members than the minimum', async () => {
    const one = { tags: { 'spot-enabled': 'true', autospotting_min_on_demand_number: '1' } }
    expect(await watched('on-demand-minimum', one).run(60)).toHaveLength(3)
    const all = { tags: { 'spot-enabled': 'true', autospotting_min_on_demand_number: '3' } }
    // At its minimum the group owes nothing: no member is above it.
    expect(await watched('protected-from-scale-in', all).run(60)).toEqual([])
  })

  it('starts a member’s clock again when its group is opted back in', async () => {
    const { sim, run } = watched('protected-from-scale-in')
    const managed = sim.group('web').tags
    expect(await run(10)).toEqual([])
    sim.group('web').tags = {}
    expect(await run(40)).toEqual([])
    sim.group('web').tags = managed
    expect(await run(15)).toEqual([])
    expect(await run(10)).toHaveLength(3)
  })

  it('ignores groups spotswap does not manage', async () => {
    expect(await watched('unexplained', { tags: {} }).run(60)).toEqual([])
  })
})

describe('the liveness invariant over whole simulations', () => {
  it('holds where a zone prices no compatible type, and the report says why each is still on-demand', async () => {
    // us-east-1c prices 43 old types in the embedded data: no m5.large stand-in there (issue 16).
    const scenario = parse(
      rawScenario(
        [group('web', { desired: 5, max: 10 })],
        { durationHours: 3 },
        {
          zones: ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1d', 'us-east-1f'],
        },
      ),
    )
    const report = await simulate(scenario)
    expect(report.violations).toEqual([])
    const still = report.groups.web?.stillOnDemand ?? []
    expect(still).toHaveLength(1)
    expect(still[0]).toMatchObject({
      type: 'm5.large',
      zone: 'us-east-1c',
      reason: 'no-compatible-spot-type',
    })
    expect(still[0]?.detail).toContain('nearest in size: m4.large (ebs-throughput)')
  })

  it('lists nothing for a group at its minimum', async () => {
    const report = await simulate(parse(rawScenario([group('web')], { durationHours: 2 })))
    expect(report.groups.web?.final.onDemand).toBe(0)
    expect(report.groups.web?.stillOnDemand).toEqual([])
  })
})
