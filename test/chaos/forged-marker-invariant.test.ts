/**
 * The invariant `forged-marker-acted-on` (tools/sim/forged-marker-invariant.ts) catches a member taken out
 * with a decrement while its group's only swap record is one chaos planted, and blames nothing else.
 */
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { TAG_SWAP } from '../../lambdas/core/constants.ts'
import { rememberPlanted } from '../../tools/sim/forged-marker-invariant.ts'
import { InvariantLedger, snapshotRegion } from '../../tools/sim/invariant-ledger.ts'
import { checkStep } from '../../tools/sim/invariants.ts'
import { group, rawScenario, type TestWorld, testWorld } from '../sim/support.ts'

const { config } = parseGlobalConfig({})
type Cloud = ReturnType<TestWorld['cloud']>

const RECORD = 'v2 id=sforged phase=waiting owner=2 pairs=1 started=2022-05-31T18:00:00.000Z'

/** A group of 3 carrying RECORD as its swap record, planted by someone else or not; one step of `act`. */
const stepWith = async (planted: boolean, act: (cloud: Cloud, member: string) => Promise<unknown>) => {
  const sim = testWorld(rawScenario([group('web', { desired: 3, max: 4 })]))
  const web = sim.group('web')
  web.tags = { ...web.tags, [TAG_SWAP]: RECORD }
  if (planted) rememberPlanted(sim.region, 'web', RECORD)
  const ledger = new InvariantLedger()
  const before = snapshotRegion(config, sim.region, ledger.rebalanced)
  const startedMs = sim.world.clock.now
  const cloud = sim.cloud()
  await act(cloud, [...web.members.keys()][0] ?? '')
  const violations = checkStep(
    { config, region: sim.region, ledger },
    [{ session: cloud.session, startedMs, onlyGroup: undefined }],
    before,
    snapshotRegion(config, sim.region),
    'now',
  )
  return violations.filter((v) => v.invariant === 'forged-marker-acted-on')
}

describe('invariant forged-marker-acted-on', () => {
  it.each([
    ['TerminateInstanceInAutoScalingGroup', (c: Cloud, id: string) => c.terminateInGroup(id, true)],
    ['DetachInstances', (c: Cloud, id: string) => c.detachInstances('web', [id], true)],
  ])('flags a %s with a decrement while the group carries a planted record', async (_, act) => {
    const violations = await stepWith(true, act)
    expect(violations.map((v) => [v.group, v.invariant])).toEqual([['web', 'forged-marker-acted-on']])
    expect(violations[0]?.detail).toContain(RECORD)
  })

  it('accepts the same decrement under a record no one planted (spotswap’s own)', async () => {
    expect(await stepWith(false, (c, id) => c.terminateInGroup(id, true))).toEqual([])
  })

  it('flags a decrement under a record spotswap rewrote from a planted one (same swap id)', async () => {
    const violations = await stepWith(true, async (c, id) => {
      await c.tagGroup('web', { [TAG_SWAP]: `v2 id=sforged phase=retiring owner=2 pairs=1 step=${id}` })
      await c.terminateInGroup(id, true)
    })
    expect(violations.map((v) => v.invariant)).toEqual(['forged-marker-acted-on'])
  })

  it('accepts a retirement without a decrement (the group backfills) beside a planted record', async () => {
    expect(await stepWith(true, (c, id) => c.terminateInGroup(id, false))).toEqual([])
  })
})
