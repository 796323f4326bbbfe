/**
 * A region-level read only some groups need (a platform's spot prices, subnets' zones) that failed: the
 * groups needing it start nothing, and what needs neither goes on (an open swap, a revert).
 */
import { describe, expect, it } from 'vitest'
import { TAG_ORIGINAL_MAX_SIZE } from '../../../lambdas/core/constants.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import {
  type FailedRegionRead,
  failedReadsOf,
  regionReadSkip,
} from '../../../lambdas/core/region/region-reads.ts'
import { launches } from '../../builders/actions.ts'
import { onDemandFleet, planInput } from '../../builders/world.ts'

const ERROR = 'InternalError: An internal error has occurred'
const PRICES: FailedRegionRead = { read: 'spot-prices', group: 'web', subject: 'Windows', error: ERROR }
const SUBNETS: FailedRegionRead = { read: 'subnets', group: 'web', subject: 'subnet-d', error: ERROR }

/** A swap left open by an earlier run: MaxSize raised from 2 to 3, nothing else left to do but close it. */
const openSwap = { maxSize: 3, tags: { [TAG_ORIGINAL_MAX_SIZE]: '2', 'spotswap:swap-desired': '3/1' } }

describe('failedReadsOf', () => {
  const failed = { prices: new Map([['Windows', ERROR]]), subnets: ERROR }

  it('gives a group the failed reads it needs: its platform’s prices, the subnets it waits on', () => {
    expect(failedReadsOf('web', 'Windows', ['subnet-d'], failed)).toEqual([PRICES, SUBNETS])
  })

  it('gives none to a group on another platform that waits on no subnet', () => {
    expect(failedReadsOf('api', 'Linux/UNIX', [], failed)).toEqual([])
  })
})

describe('regionReadSkip', () => {
  it.each([
    [PRICES, 'spot-prices-unreadable', 'Windows: InternalError'],
    [SUBNETS, 'subnets-unreadable', 'subnet-d: InternalError'],
  ] as const)('skips the group for a failed %s read, naming what and the error', (read, code, says) => {
    const skip = regionReadSkip([read])
    expect(skip?.code).toBe(code)
    expect(skip?.detail).toContain(says)
    expect(skip?.detail).toContain('the next run reads again')
  })

  it('skips nothing when no read failed', () => {
    expect(regionReadSkip(undefined)).toBeUndefined()
    expect(regionReadSkip([])).toBeUndefined()
  })
})

describe('planGroup with a region-level read it needs failed', () => {
  it.each([PRICES, SUBNETS])('starts no replacement ($read)', (read) => {
    const plan = planGroup(planInput(onDemandFleet(2), { regionReadSkip: regionReadSkip([read]) }))
    expect(plan.skip?.code).toMatch(/-unreadable$/)
    expect(launches(plan.actions)).toEqual([])
    expect(plan.onDemand.map((s) => s.code)).toEqual(['group-skipped', 'group-skipped'])
  })

  it.each([PRICES, SUBNETS])('finishes its open swap ($read)', (read) => {
    const plan = planGroup(
      planInput(onDemandFleet(2), { regionReadSkip: regionReadSkip([read]), groupOverrides: openSwap }),
    )
    expect(plan.actions).toContainEqual(expect.objectContaining({ kind: 'close-swap', maxSize: 2 }))
  })

  it('goes on with a revert its owner asked for, which needs no spot price', () => {
    const plan = planGroup(
      planInput(onDemandFleet(2), {
        regionReadSkip: regionReadSkip([PRICES]),
        groupOverrides: { maxSize: 3, tags: { 'spotswap:revert': 'v1 phase=requested' } },
      }),
    )
    expect(plan.skip?.code).toBe('reverting')
    expect(plan.actions).toContainEqual(expect.objectContaining({ kind: 'revert' }))
  })
})
