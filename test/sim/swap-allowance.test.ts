/**
 * Invariant 4 while a swap is open (issue 12): desired capacity may stand above the owner's figure by at
 * most the swap's open pairs until their deadline, MaxSize as far as the swap raised it; everything else
 * as strict as before. Pairs are read from the world: a replacement spotswap attached whose
 * launched-for-replacing-instance names a member of the same group.
 */
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { BOOT_SECONDS } from '../../tools/sim/constants.ts'
import type { Session } from '../../tools/sim/faults.ts'
import { InvariantLedger, snapshotRegion } from '../../tools/sim/invariant-ledger.ts'
import { checkStep } from '../../tools/sim/invariants.ts'
import { openPairs, pairAllowanceMs } from '../../tools/sim/swap-allowance.ts'
import { group, launchSpotFor, rawScenario, type TestWorld, testWorld } from './support.ts'

const { config } = parseGlobalConfig({ SCHEDULE_MINUTES: '5' })
type Cloud = ReturnType<TestWorld['cloud']>

/** One account and one ledger, so the checks remember what they saw from step to step. */
const account = (desired = 2, max = 4) => {
  const sim = testWorld(rawScenario([group('web', { desired, max })]))
  const ledger = new InvariantLedger()
  /** Runs `act` as one step of `actor` and returns the detail of each invariant 4 violation. */
  const step = async (act: (cloud: Cloud) => Promise<unknown>, actor: Session['actor'] = 'replacer') => {
    const cloud = sim.cloud(actor)
    const before = snapshotRegion(config, sim.region)
    const startedMs = sim.world.clock.now
    await act(cloud)
    const run = { session: cloud.session, startedMs, onlyGroup: undefined }
    const after = snapshotRegion(config, sim.region)
    return checkStep({ config, region: sim.region, ledger }, [run], before, after, 'now')
      .filter((v) => v.invariant === 'group-size-not-restored')
      .map((v) => v.detail)
  }
  /** Running spot instances launched for `web`, each replacing the member of that index (none: no partner). */
  const replacements = async (...partners: (number | undefined)[]) => {
    const ids: string[] = []
    for (const [n, index] of partners.entries()) {
      const partner = index === undefined ? undefined : sim.members('web')[index]?.id
      const launched = await launchSpotFor(sim.cloud(), 'web', 'm5.large', 'us-east-1b', `t-${n}`, partner)
      ids.push(launched.ok ? launched.instanceId : '')
    }
    await sim.advance(BOOT_SECONDS * 1000)
    return ids
  }
  return { sim, step, replacements }
}

const idle = async () => undefined

describe('invariant 4 while a swap is open', () => {
  it('holds the allowance of a pair whose replacement the owner protected until they lift it', async () => {
    const { sim, step, replacements } = account(2, 3)
    const [first] = await replacements(0)
    expect(await step((c) => c.attachInstances('web', [first ?? '']))).toEqual([])
    const instance = sim.region.instances.get(first ?? '')
    if (instance === undefined) throw new Error('no replacement')
    instance.terminationProtected = true
    expect(openPairs(config, sim.region, sim.group('web'))).toEqual([Number.POSITIVE_INFINITY])
    instance.terminationProtected = false
    expect(openPairs(config, sim.region, sim.group('web'))[0]).toBeLessThan(Number.POSITIVE_INFINITY)
  })

  it('accepts desired capacity above the owner’s figure by the open pairs, MaxSize raised for them', async () => {
    const { sim, step, replacements } = account(2, 2)
    const [first, second] = await replacements(0, 1)
    expect(
      await step(async (c) => {
        await c.setMaxSize('web', 4)
        await c.attachInstances('web', [first ?? '', second ?? ''])
      }),
    ).toEqual([])
    expect(openPairs(config, sim.region, sim.group('web'))).toHaveLength(2)
    // One pair closes: desired one lower, MaxSize still as the swap raised it while the other is open.
    const partner = sim.members('web')[0]?.id ?? ''
    expect(await step((c) => c.terminateInGroup(partner, true))).toEqual([])
    expect(await step(idle)).toEqual([])
  })

  it('flags a +1 no open pair accounts for', async () => {
    const { step, replacements } = account()
    const [spot] = await replacements(undefined)
    expect(await step((c) => c.attachInstances('web', [spot ?? '']))).toEqual([
      'changed by an invocation without failures: min/max/desired 0/4/3, owner set 0/4/2',
    ])
  })

  it('flags desired capacity below the owner’s figure, open pairs or not', async () => {
    const { sim, step, replacements } = account()
    const [spot] = await replacements(0)
    await step((c) => c.attachInstances('web', [spot ?? '']))
    const other = sim.members('web')[1]?.id ?? ''
    const details = await step(async (c) => {
      await c.terminateInGroup(other, true)
      await c.terminateInGroup(spot ?? '', true)
    })
    expect(details).toEqual([
      'changed by an invocation without failures: min/max/desired 0/4/1, owner set 0/4/2',
    ])
  })

  it('flags a clean run that leaves a pair open past its deadline (plus the time to act on it)', async () => {
    const { sim, step, replacements } = account()
    const [spot] = await replacements(0)
    await step((c) => c.attachInstances('web', [spot ?? '']))
    await sim.advance(pairAllowanceMs(config) - 1000)
    expect(await step(idle)).toEqual([])
    await sim.advance(1000)
    // The interruption handler is not asked to close swaps: only a replacer run is.
    expect(await step(idle, 'interruption')).toEqual([])
    expect(await step(idle)).toEqual([
      "still above the owner's figure after the deadline of its open pairs (1): min/max/desired 0/4/3, owner set 0/4/2",
    ])
  })

  it.each([
    ['restores MaxSize', (c: Cloud) => c.setMaxSize('web', 2), []],
    [
      'leaves it raised',
      idle,
      [
        'a replacer run without failures left MaxSize raised once no pair was open: min/max/desired 0/3/2, owner set 0/2/2',
      ],
    ],
  ] as const)(
    'lets MaxSize stay raised after the handler closed the last pair until a clean replacer run, which %s',
    async (_, act, expected) => {
      const { sim, step, replacements } = account(2, 2)
      const [spot] = await replacements(0)
      await step(async (c) => {
        await c.setMaxSize('web', 3)
        await c.attachInstances('web', [spot ?? ''])
      })
      // The handler retires the partner at its deadline with the pair's unit; MaxSize is the replacer's.
      const partner = sim.members('web')[0]?.id ?? ''
      expect(await step((c) => c.detachInstances('web', [partner], true), 'interruption')).toEqual([])
      expect(await step(act)).toEqual(expected)
    },
  )

  it('flags a replacer run that closes the last pair and leaves MaxSize raised', async () => {
    const { sim, step, replacements } = account(2, 2)
    const [spot] = await replacements(0)
    await step(async (c) => {
      await c.setMaxSize('web', 3)
      await c.attachInstances('web', [spot ?? ''])
    })
    const partner = sim.members('web')[0]?.id ?? ''
    expect(await step((c) => c.terminateInGroup(partner, true))).toEqual([
      'changed by an invocation without failures: min/max/desired 0/3/2, owner set 0/2/2',
    ])
  })

  it('flags a pair closed without its unit (a doomed partner leaving at its deadline without a decrement)', async () => {
    const { sim, step, replacements } = account()
    const [spot] = await replacements(0)
    await step((c) => c.attachInstances('web', [spot ?? '']))
    const partner = sim.members('web')[0]?.id ?? ''
    expect(await step((c) => c.detachInstances('web', [partner], false), 'interruption')).toEqual([
      'an invocation without failures closed 1 open pair(s) without giving back their unit: min/max/desired 0/4/3, owner set 0/4/2',
    ])
  })

  it('counts no pair whose partner left the group or is leaving it', async () => {
    const { sim, replacements } = account()
    const [spot] = await replacements(0)
    await sim.cloud().attachInstances('web', [spot ?? ''])
    expect(openPairs(config, sim.region, sim.group('web'))).toHaveLength(1)
    await sim.cloud().terminateInGroup(sim.members('web')[0]?.id ?? '', false)
    expect(openPairs(config, sim.region, sim.group('web'))).toEqual([])
  })
})
