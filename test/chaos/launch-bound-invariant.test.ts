/**
 * The invariant `launches-beyond-budget` (tools/sim/launch-bound-invariant.ts) catches a group with more
 * launches spotswap cannot verify than its in-flight budget, and blames nothing within it.
 */
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { silentLog } from '../../lambdas/core/log.ts'
import { runRegion } from '../../lambdas/replacer/run-region.ts'
import { InvariantLedger, snapshotRegion, type Violation } from '../../tools/sim/invariant-ledger.ts'
import { checkStep } from '../../tools/sim/invariants.ts'
import { omitLaunchTemplateTag } from '../../tools/sim/sdk/ec2-launches.ts'
import { group, launchSpotFor, rawScenario, type TestWorld, testWorld } from '../sim/support.ts'

const { config } = parseGlobalConfig({})
/** A set budget of a quarter (the default of a group behind load balancers). */
const quarter = parseGlobalConfig({ MAX_REPLACEMENTS_IN_FLIGHT: '25%' }).config
const TARGET_GROUP = { type: 'target-group', healthCheckIntervalSeconds: 30, healthyThreshold: 3 }
type Cloud = ReturnType<TestWorld['cloud']>

const step = async (
  sim: TestWorld,
  act: (cloud: Cloud) => Promise<unknown>,
  ledger: InvariantLedger,
  stepConfig = quarter,
) => {
  const before = snapshotRegion(stepConfig, sim.region, ledger.rebalanced)
  const startedMs = sim.world.clock.now
  const cloud = sim.cloud()
  await act(cloud)
  return checkStep(
    { config: stepConfig, region: sim.region, ledger },
    [{ session: cloud.session, startedMs, onlyGroup: 'web' }],
    before,
    snapshotRegion(stepConfig, sim.region),
    'now',
  )
}

const launch = (cloud: Cloud, partner: string) =>
  launchSpotFor(cloud, 'web', 'm5.large', 'us-east-1b', `token-${partner}`, partner)

const kinds = (violations: readonly Violation[]) => violations.map((v) => v.invariant)

/**
 * A group of 8 (budget 25%: 2, set or the default behind a load balancer) and a launch for each of its
 * first `count` members, one step each.
 */
const launches = async (
  count: number,
  untagged: boolean,
  { stepConfig = quarter, groupOverrides = {} }: { stepConfig?: typeof config; groupOverrides?: object } = {},
): Promise<Violation[][]> => {
  const sim = testWorld(rawScenario([group('web', { desired: 8, max: 10, ...groupOverrides })]))
  if (untagged) omitLaunchTemplateTag(sim.region, 'web')
  const ledger = new InvariantLedger()
  const partners = [...sim.group('web').members.keys()]
  const steps: Violation[][] = []
  for (const partner of partners.slice(0, count))
    steps.push(await step(sim, (c) => launch(c, partner), ledger, stepConfig))
  return steps
}

describe('invariant launches-beyond-budget: launches in flight', () => {
  it('flags the step that brings a third unverifiable launch to a group whose budget is 2', async () => {
    const steps = await launches(3, true)
    expect(steps.slice(0, 2).flatMap(kinds)).not.toContain('launches-beyond-budget')
    expect(kinds(steps[2] ?? [])).toContain('launches-beyond-budget')
  })

  it('counts those EC2 tagged with its launch template too: every launch in flight', async () => {
    const steps = await launches(3, false)
    expect(steps.slice(0, 2).flatMap(kinds)).not.toContain('launches-beyond-budget')
    expect(kinds(steps[2] ?? [])).toContain('launches-beyond-budget')
  })

  it('takes the default budget from what judges the group: a quarter behind a load balancer, else all', async () => {
    const behind = await launches(3, false, {
      stepConfig: config,
      groupOverrides: { loadBalancers: [TARGET_GROUP] },
    })
    expect(kinds(behind[2] ?? [])).toContain('launches-beyond-budget')
    const without = await launches(8, false, { stepConfig: config })
    expect(without.flatMap(kinds)).not.toContain('launches-beyond-budget')
  })

  it('counts none that joined the group', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 8, max: 12 })]))
    const ledger = new InvariantLedger()
    const partners = [...sim.group('web').members.keys()]
    for (const partner of partners.slice(0, 2)) await step(sim, (c) => launch(c, partner), ledger)
    await sim.advance(2 * 60_000)
    const launched = [...sim.region.instances.values()].filter((i) => i.origin === 'spotswap')
    await step(
      sim,
      (c) =>
        c.attachInstances(
          'web',
          launched.map((i) => i.id),
        ),
      ledger,
    )
    const third = await step(sim, (c) => launch(c, partners[2] ?? ''), ledger)
    expect(kinds(third)).not.toContain('launches-beyond-budget')
  })
})

describe('invariant launches-beyond-budget: a replacer run whose attach fails', () => {
  const env = { MAX_REPLACEMENTS_IN_FLIGHT: '2', GRACE_PERIOD: '0' }
  const failAttach = { on: false }
  const faults = {
    decide: ({ operation }: { operation: string }) =>
      failAttach.on && operation === 'autoscaling:AttachInstances'
        ? {
            kind: 'error' as const,
            error: Object.assign(new Error('unavailable'), {
              name: 'ServiceUnavailable',
              $metadata: { httpStatusCode: 503 },
            }),
          }
        : { kind: 'none' as const },
  }
  const run = (sim: TestWorld, ledger: InvariantLedger) => {
    const parsed = parseGlobalConfig(env).config
    return step(
      sim,
      (cloud) =>
        runRegion({
          cloud,
          config: parsed,
          now: sim.world.clock.nowDate(),
          log: silentLog,
          metrics: { emit: () => {} },
        }).catch(() => undefined),
      ledger,
      parsed,
    )
  }

  it('brings no launch beyond the budget in the same run', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 8, max: 12 })], { env }), faults)
    const ledger = new InvariantLedger()
    expect(kinds(await run(sim, ledger))).not.toContain('launches-beyond-budget')
    await sim.advance(6 * 60_000)
    failAttach.on = true
    const second = await run(sim, ledger)
    failAttach.on = false
    const inFlight = [...sim.region.instances.values()].filter(
      (i) => i.origin === 'spotswap' && i.state !== 'terminated' && sim.region.groupOf(i.id) === undefined,
    )
    expect(kinds(second)).not.toContain('launches-beyond-budget')
    expect(inFlight.length).toBeLessThanOrEqual(2)
  })
})
