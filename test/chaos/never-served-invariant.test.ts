/**
 * Invariant `never-served`: a member spotswap attached that never serves must not stay in its group past
 * its deadline, and what the owner did (protecting it) or AWS did is not spotswap's fault.
 */
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import type { FaultHooks, Session } from '../../tools/sim/faults.ts'
import { InvariantLedger, type Violation } from '../../tools/sim/invariant-ledger.ts'
import { checkNeverServed } from '../../tools/sim/never-served-invariant.ts'
import type { SimInstance } from '../../tools/sim/state.ts'
import { group, launchSpotFor, rawScenario, type TestWorld, testWorld } from '../sim/support.ts'

const { config } = parseGlobalConfig({})
type Cloud = ReturnType<TestWorld['cloud']>

const balancer = {
  type: 'target-group',
  healthCheckIntervalSeconds: 30,
  healthyThreshold: 5,
  deregistrationDelaySeconds: 0,
}

/** A web group behind a target group, with one spot member spotswap attached (broken image or not). */
const withAttached = async (options: { broken: boolean; faults?: FaultHooks }) => {
  const sim = testWorld(
    rawScenario([
      group('web', {
        desired: 2,
        healthCheckGracePeriod: 0,
        loadBalancers: [balancer],
        unhealthyReplacementFraction: options.broken ? 1 : 0,
      }),
    ]),
    options.faults,
  )
  const cloud = sim.cloud()
  const partner = sim.members('web')[0]?.id ?? ''
  const launched = await launchSpotFor(cloud, 'web', 'm5.large', 'us-east-1b', 'token', partner)
  const spotId = launched.ok ? launched.instanceId : ''
  await sim.advance(60_000)
  await cloud.setMaxSize('web', 6)
  await cloud.attachInstances('web', [spotId])
  return { sim, spot: sim.region.instances.get(spotId) as SimInstance }
}

/** One replacer step (`clean` unless told) judged `minutes` after the attach. */
const judgeAfter = async (
  sim: TestWorld,
  minutes: number,
  options: { ledger?: InvariantLedger; session?: Partial<Session>; onlyGroup?: string } = {},
): Promise<Violation[]> => {
  await sim.advance(minutes * 60_000)
  const cloud: Cloud = sim.cloud('replacer')
  const session = { ...cloud.session, ...options.session }
  return checkNeverServed(
    { config, region: sim.region, ledger: options.ledger ?? new InvariantLedger() },
    [{ session, startedMs: sim.world.clock.now, onlyGroup: options.onlyGroup }],
    sim.world.clock.now,
    sim.world.clock.nowDate().toISOString(),
  )
}
const kinds = (violations: readonly Violation[]) => violations.map((v) => v.invariant)

// The allowance: 1800 s health deadline + a 5-minute period + 60 s of queue, + 2 periods + 30 s once
// released: 46.5 minutes.
describe('invariant never-served', () => {
  it('flags a replacement that never served, still in its group past its deadline', async () => {
    const { sim } = await withAttached({ broken: true })
    expect(kinds(await judgeAfter(sim, 47))).toEqual(['never-served'])
  })

  it('reports it once', async () => {
    const { sim } = await withAttached({ broken: true })
    const ledger = new InvariantLedger()
    expect(kinds(await judgeAfter(sim, 47, { ledger }))).toEqual(['never-served'])
    expect(await judgeAfter(sim, 5, { ledger })).toEqual([])
  })

  it('does not flag it before its deadline', async () => {
    const { sim } = await withAttached({ broken: true })
    expect(await judgeAfter(sim, 46)).toEqual([])
  })

  it('does not flag a replacement that served once, even if it does not now', async () => {
    const { sim, spot } = await withAttached({ broken: false })
    const ledger = new InvariantLedger()
    // Healthy after 5 checks 30 s apart: seen serving after a step at 3 minutes.
    expect(await judgeAfter(sim, 3, { ledger })).toEqual([])
    const target = sim.group('web').loadBalancers[0]?.targets
    target?.delete(spot.id)
    expect(await judgeAfter(sim, 60, { ledger })).toEqual([])
  })

  it.each([
    [
      'the owner protected it from scale-in',
      (sim: TestWorld, spot: SimInstance) => {
        const member = sim.group('web').members.get(spot.id)
        if (member !== undefined) member.protectedFromScaleIn = true
      },
    ],
    [
      'the owner protected it from API termination',
      (_: TestWorld, spot: SimInstance) => {
        spot.terminationProtected = true
      },
    ],
    [
      'the owner stopped managing the group',
      (sim: TestWorld) => {
        sim.group('web').tags = {}
      },
    ],
  ])('does not blame spotswap when %s', async (_, act) => {
    const { sim, spot } = await withAttached({ broken: true })
    act(sim, spot)
    expect(await judgeAfter(sim, 60)).toEqual([])
  })

  it.each([
    ['crashed', { crashed: true }],
    ['saw a failed request', { failedCalls: 1 }],
  ])('waits for a clean replacer run: not judged after one that %s', async (_, session) => {
    const { sim } = await withAttached({ broken: true })
    expect(await judgeAfter(sim, 60, { session })).toEqual([])
  })

  it('is judged only after a replacer run that covered the group', async () => {
    const { sim } = await withAttached({ broken: true })
    expect(await judgeAfter(sim, 60, { onlyGroup: 'other' })).toEqual([])
    expect(await judgeAfter(sim, 0, { session: { actor: 'interruption' } })).toEqual([])
  })

  it('forgives a member Auto Scaling launched (only spotswap attaches replacements)', async () => {
    const sim = testWorld(
      rawScenario([group('web', { desired: 2, healthCheckGracePeriod: 0, loadBalancers: [balancer] })]),
    )
    for (const balancerState of sim.group('web').loadBalancers) balancerState.targets.clear()
    expect(await judgeAfter(sim, 120)).toEqual([])
  })
})
