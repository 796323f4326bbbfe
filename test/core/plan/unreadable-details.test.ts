/**
 * Reads that failed, as the planner judges them: a stack whose status is unknown holds its group and its
 * open swap as if the stack were updating; hooks that are unknown keep the group from starting anything,
 * while its open swap is finished.
 */
import { describe, expect, it } from 'vitest'
import { TAG_ORIGINAL_MAX_SIZE } from '../../../lambdas/core/constants.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import { launches } from '../../builders/actions.ts'
import { config, onDemandFleet, planInput } from '../../builders/world.ts'

/** A swap left open by an earlier run: MaxSize raised from 2 to 3, nothing else left to do but close it. */
const openSwap = { maxSize: 3, tags: { [TAG_ORIGINAL_MAX_SIZE]: '2', 'spotswap:swap-desired': '3/1' } }
const ERROR = 'ServiceUnavailable: try again'

describe('a stack whose status could not be read', () => {
  it('skips the group, naming the error', () => {
    const plan = planGroup(planInput(onDemandFleet(2), { stackStatusUnreadable: ERROR }))
    expect(plan.skip).toEqual({
      code: 'cloudformation-stack-unreadable',
      detail: `${ERROR}: held as if its stack were updating; the next run reads again`,
    })
    expect(launches(plan.actions)).toEqual([])
  })

  it('holds its open swap: nothing written', () => {
    const plan = planGroup(
      planInput(onDemandFleet(2), { stackStatusUnreadable: ERROR, groupOverrides: openSwap }),
    )
    expect(plan.actions).toEqual([])
  })
})

describe('lifecycle hooks that could not be read', () => {
  it('skip the group, naming the error', () => {
    const plan = planGroup(planInput(onDemandFleet(2), { lifecycleHooksUnreadable: ERROR }))
    expect(plan.skip?.code).toBe('launch-hooks-unreadable')
    expect(plan.skipped).toContain(ERROR)
    expect(launches(plan.actions)).toEqual([])
  })

  it('let its open swap finish', () => {
    const plan = planGroup(
      planInput(onDemandFleet(2), { lifecycleHooksUnreadable: ERROR, groupOverrides: openSwap }),
    )
    expect(plan.actions).toContainEqual(expect.objectContaining({ kind: 'close-swap', maxSize: 2 }))
  })

  it('do not matter to a group that swaps whatever its hooks (IGNORE_LAUNCH_HOOKS)', () => {
    const plan = planGroup(
      planInput(onDemandFleet(2), {
        lifecycleHooksUnreadable: ERROR,
        config: config({ ignoreLaunchHooks: true }),
      }),
    )
    expect(plan.skip).toBeUndefined()
    expect(launches(plan.actions).length).toBeGreaterThan(0)
  })
})
