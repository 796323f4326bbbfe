/**
 * Groups that count capacity in vCPUs or MiB (DesiredCapacityType): a swap's +1/−1 is wrong there, so
 * the group is skipped, and an open swap waits rather than write back a MaxSize counted in instances.
 */
import { describe, expect, it } from 'vitest'
import { TAG_ORIGINAL_MAX_SIZE } from '../../../lambdas/core/constants.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import { launches } from '../../builders/actions.ts'
import { onDemandFleet, planInput } from '../../builders/world.ts'

/** A swap left open by an earlier run: MaxSize raised from 2 to 3, nothing else left to do but close it. */
const openSwap = { maxSize: 3, tags: { [TAG_ORIGINAL_MAX_SIZE]: '2', 'spotswap:swap-desired': '3/1' } }

describe('DesiredCapacityType', () => {
  it.each(['vcpu', 'memory-mib'])('skips a group whose capacity is counted in %s', (type) => {
    const plan = planGroup(planInput(onDemandFleet(2), { groupOverrides: { desiredCapacityType: type } }))
    expect(plan.skip).toEqual({
      code: 'capacity-not-in-instances',
      detail: `DesiredCapacityType ${type}: a swap counts instances, not ${type}`,
    })
    expect(launches(plan.actions)).toEqual([])
  })

  it.each([undefined, 'units'])('converts a group whose capacity type is %s', (type) => {
    const plan = planGroup(planInput(onDemandFleet(2), { groupOverrides: { desiredCapacityType: type } }))
    expect(plan.skip).toBeUndefined()
    expect(launches(plan.actions).length).toBeGreaterThan(0)
  })

  it('closes an open swap of a group counted in instances', () => {
    const plan = planGroup(planInput(onDemandFleet(2), { groupOverrides: openSwap }))
    expect(plan.actions).toContainEqual(expect.objectContaining({ kind: 'close-swap', maxSize: 2 }))
  })

  it('leaves the open swap of a group changed to vcpu alone: its MaxSize counts instances', () => {
    const plan = planGroup(
      planInput(onDemandFleet(2), { groupOverrides: { ...openSwap, desiredCapacityType: 'vcpu' } }),
    )
    expect(plan.skip?.code).toBe('capacity-not-in-instances')
    expect(plan.actions).toEqual([])
  })

  it('holds an open swap of such a group at desired 0 too (desired 0 would finish it)', () => {
    const plan = planGroup(
      planInput([], {
        groupOverrides: { ...openSwap, desiredCapacity: 0, desiredCapacityType: 'memory-mib' },
      }),
    )
    expect(plan.skip?.code).toBe('capacity-not-in-instances')
    expect(plan.actions).toEqual([])
  })
})
