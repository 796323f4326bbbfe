/**
 * The invariant `launches-beyond-budget` (tools/sim/launch-bound-invariant.ts) catches a group with more
 * launches spotswap cannot verify than its in-flight budget, and blames nothing within it.
 */
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { InvariantLedger, snapshotRegion, type Violation } from '../../tools/sim/invariant-ledger.ts'
import { checkStep } from '../../tools/sim/invariants.ts'
import { omitLaunchTemplateTag } from '../../tools/sim/sdk/ec2-launches.ts'
import { group, launchSpotFor, rawScenario, type TestWorld, testWorld } from '../sim/support.ts'

const { config } = parseGlobalConfig({})
type Cloud = ReturnType<TestWorld['cloud']>

const step = async (sim: TestWorld, act: (cloud: Cloud) => Promise<unknown>, ledger: InvariantLedger) => {
  const before = snapshotRegion(config, sim.region, ledger.rebalanced)
  const startedMs = sim.world.clock.now
  const cloud = sim.cloud()
  await act(cloud)
  return checkStep(
    { config, region: sim.region, ledger },
    [{ session: cloud.session, startedMs, onlyGroup: 'web' }],
    before,
    snapshotRegion(config, sim.region),
    'now',
  )
}

const launch = (cloud: Cloud, partner: string) =>
  launchSpotFor(cloud, 'web', 'm5.large', 'us-east-1b', `token-${partner}`, partner)

const kinds = (violations: readonly Violation[]) => violations.map((v) => v.invariant)

/** A group of 8 (budget 25%: 2) and a launch for each of its first `count` members, one step each. */
const launches = async (count: number, untagged: boolean): Promise<Violation[][]> => {
  const sim = testWorld(rawScenario([group('web', { desired: 8, max: 10 })]))
  if (untagged) omitLaunchTemplateTag(sim.region, 'web')
  const ledger = new InvariantLedger()
  const partners = [...sim.group('web').members.keys()]
  const steps: Violation[][] = []
  for (const partner of partners.slice(0, count))
    steps.push(await step(sim, (c) => launch(c, partner), ledger))
  return steps
}

describe('invariant launches-beyond-budget: launches spotswap cannot verify', () => {
  it('flags the step that brings a third unverifiable launch to a group whose budget is 2', async () => {
    const steps = await launches(3, true)
    expect(steps.slice(0, 2).flatMap(kinds)).not.toContain('launches-beyond-budget')
    expect(kinds(steps[2] ?? [])).toContain('launches-beyond-budget')
  })

  it('counts none that EC2 tagged with its launch template', async () => {
    const steps = await launches(3, false)
    expect(steps.flatMap(kinds)).not.toContain('launches-beyond-budget')
  })
})
