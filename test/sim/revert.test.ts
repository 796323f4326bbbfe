/**
 * `spotswap revert` in the simulator: a converged group comes back to all on-demand, one serve-before-retire
 * step at a time, with no serving capacity lost and every invariant holding; a forged marker does nothing;
 * where Auto Scaling cannot launch, the revert stalls holding nothing.
 */
import { describe, expect, it } from 'vitest'
import { TAG_REVERT } from '../../lambdas/core/revert/marker.ts'
import { Priority } from '../../tools/sim/clock.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import type { World } from '../../tools/sim/world.ts'
import { group, parse, REGION, rawScenario, START_MS } from './support.ts'

const TARGET_GROUP = {
  type: 'target-group',
  healthCheckIntervalSeconds: 30,
  healthyThreshold: 3,
  deregistrationDelaySeconds: 300,
}
const web = group('web', {
  min: 2,
  max: 8,
  desired: 4,
  loadBalancers: [TARGET_GROUP],
  tags: { 'spot-enabled': 'true' },
})
const HOUR = 3_600_000

describe('reverting a converged group in the simulator', () => {
  it('brings it back to all on-demand with no serving lost, and leaves it alone after', async () => {
    let reverted: Record<string, string> | undefined
    const report = await simulate(parse(rawScenario([web], { durationHours: 6 })), {
      prepare: (world, invocations) => {
        world.clock.schedule(START_MS + 2 * HOUR, Priority.external, 'spotswap revert', async () => {
          const spot = [...(world.region(REGION).groups.get('web')?.members.keys() ?? [])].filter(
            (id) => world.region(REGION).instances.get(id)?.lifecycle === 'spot',
          )
          // Converged first: the revert has spot members to bring back.
          expect(spot.length).toBeGreaterThan(0)
          await invocations.requestRevert(REGION, 'web')
        })
        world.clock.schedule(START_MS + 6 * HOUR - 60_000, Priority.external, 'look', () => {
          reverted = world.region(REGION).groups.get('web')?.tags
        })
      },
    })
    expect(report.violations).toEqual([])
    expect(report.groups.web?.servingAvailabilityPct).toBe(100)
    expect(report.groups.web?.final).toMatchObject({ desired: 4, inService: 4, onDemand: 4, spot: 0 })
    expect(reverted?.[TAG_REVERT]).toMatch(/^v1 phase=done/)
  })

  it('stops raising when Auto Scaling cannot launch: nothing held, no spot member retired, no serving lost', async () => {
    let spotAtRequest: string[] = []
    let after: { tags: Record<string, string>; spot: string[]; desired: number } | undefined
    const spotOf = (world: World) =>
      [...(world.region(REGION).groups.get('web')?.members.keys() ?? [])].filter(
        (id) => world.region(REGION).instances.get(id)?.lifecycle === 'spot',
      )
    const report = await simulate(parse(rawScenario([web], { durationHours: 6 })), {
      prepare: (world, invocations) => {
        world.clock.schedule(START_MS + 2 * HOUR, Priority.external, 'spotswap revert', async () => {
          const group = world.region(REGION).groups.get('web')
          if (group !== undefined) group.ownLaunchesFail = true
          spotAtRequest = spotOf(world)
          await invocations.requestRevert(REGION, 'web')
        })
        world.clock.schedule(START_MS + 6 * HOUR - 60_000, Priority.external, 'look', () => {
          const group = world.region(REGION).groups.get('web')
          after = { tags: { ...group?.tags }, spot: spotOf(world), desired: group?.desiredCapacity ?? -1 }
        })
      },
    })
    expect(report.violations).toEqual([])
    expect(report.groups.web?.servingAvailabilityPct).toBe(100)
    expect(spotAtRequest.length).toBeGreaterThan(0)
    expect(after?.spot).toEqual(spotAtRequest)
    expect(after?.desired).toBe(4)
    expect(after?.tags[TAG_REVERT]).toMatch(/^v1 phase=stalled failed=3 why=not-launched/)
  })
})
