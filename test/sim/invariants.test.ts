import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config.ts'
import { BOOT_SECONDS } from '../../lambdas/sim/constants.ts'
import { warn } from '../../lambdas/sim/interruptions.ts'
import {
  checkInvocation,
  RESTORE_RUNS,
  type SizeWatch,
  snapshotRegion,
} from '../../lambdas/sim/invariants.ts'
import type { SimInstance } from '../../lambdas/sim/state.ts'
import { group, launchSpotFor, rawScenario, type TestWorld, testWorld } from './support.ts'

const { config } = parseGlobalConfig({ MIN_ON_DEMAND_NUMBER: '1' })

/** Runs `act` as one invocation and returns the invariants it broke. */
const around = async (
  sim: TestWorld,
  act: (cloud: ReturnType<TestWorld['cloud']>) => Promise<unknown>,
  watch: SizeWatch = new Map(),
) => {
  const cloud = sim.cloud()
  const before = snapshotRegion(config, sim.region)
  await act(cloud).catch(() => undefined)
  return checkInvocation(
    sim.region,
    cloud.session,
    before,
    snapshotRegion(config, sim.region),
    'now',
    watch,
  ).map((v) => v.invariant)
}

const attachedSpot = async (sim: TestWorld): Promise<string> => {
  const cloud = sim.cloud()
  const launched = await launchSpotFor(cloud, 'web', 'm5.large', 'us-east-1b', `t-${sim.world.clock.now}`)
  await sim.advance(BOOT_SECONDS * 1000)
  const id = launched.ok ? launched.instanceId : ''
  await cloud.setMaxSize('web', 4)
  await cloud.attachInstances('web', [id])
  return id
}

describe('invariant checks around an invocation', () => {
  it('accept a complete swap: attach, then retire the partner with a decrement', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3, max: 4 })]))
    const [partner] = sim.members('web')
    const spot = await (async () => {
      const launched = await launchSpotFor(sim.cloud(), 'web', 'm5.large', 'us-east-1b')
      await sim.advance(BOOT_SECONDS * 1000)
      return launched.ok ? launched.instanceId : ''
    })()
    expect(
      await around(sim, async (cloud) => {
        await cloud.attachInstances('web', [spot])
        await cloud.terminateInGroup(partner?.id ?? '', true)
      }),
    ).toEqual([])
  })

  it('flag capacity lost and on-demand instances retired below the minimum by spotswap', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2 })]))
    const [first, second] = sim.members('web')
    expect(
      await around(sim, async (cloud) => {
        await cloud.terminateInGroup(first?.id ?? '', true)
        await cloud.terminateInGroup(second?.id ?? '', true)
      }),
    ).toEqual(['capacity-below-desired', 'on-demand-below-minimum', 'group-size-not-restored'])
  })

  it('let an interrupted member go: its loss is EC2’s doing', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, max: 4 })]))
    const spot = await attachedSpot(sim)
    warn(sim.world, sim.region, sim.region.instances.get(spot) as SimInstance)
    expect(await around(sim, (cloud) => cloud.detachInstances('web', [spot], false))).toEqual([])
  })

  it(`allow a group left half-swapped by a crash ${RESTORE_RUNS} clean runs to be restored`, async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, max: 3 })]))
    await attachedSpot(sim)
    const watch: SizeWatch = new Map()
    const idle = async () => undefined
    expect(await around(sim, idle, watch)).toEqual([])
    expect(await around(sim, idle, watch)).toEqual(['group-size-not-restored'])
  })
})
