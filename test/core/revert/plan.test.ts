import { describe, expect, it } from 'vitest'
import { TAG_MAINTENANCE } from '../../../lambdas/core/constants.ts'
import { planRevert, type RevertPlanInput } from '../../../lambdas/core/revert/plan.ts'
import type { Group, Instance } from '../../../lambdas/core/types.ts'
import { aGroup, anInstance, memberOf, minutesAgo, NOW } from '../../builders/world.ts'

const onDemand = anInstance({ lifecycle: 'on-demand', launchTime: minutesAgo(300) })
const spotA = anInstance({ lifecycle: 'spot', launchTime: minutesAgo(200) })
const spotB = anInstance({ lifecycle: 'spot', launchTime: minutesAgo(100) })
const instances = [onDemand, spotA, spotB]

const input = (tags: Record<string, string>, overrides: Partial<Group> = {}, protectedIds: string[] = []) => {
  const group = aGroup(
    instances.map((i) => memberOf(i)),
    { maxSize: 4, ...overrides },
  )
  const byId = new Map<string, Instance>(instances.map((i) => [i.id, i]))
  return {
    group: { ...group, desiredCapacity: 3, tags: { ...group.tags, ...tags } },
    now: NOW,
    detail: (id: string) => byId.get(id),
    isProtected: (id: string) => protectedIds.includes(id),
    health: undefined,
    graceSeconds: 300,
  } satisfies RevertPlanInput
}

const REQUESTED = { 'spotswap:revert': 'v1 phase=requested' }

describe('planRevert', () => {
  it('does nothing in a group without the marker', () => {
    expect(planRevert(input({}))).toEqual({ skip: undefined, actions: [] })
  })

  it('holds the group and raises desired capacity through Auto Scaling', () => {
    const plan = planRevert(input(REQUESTED))
    expect(plan.skip?.code).toBe('reverting')
    expect(plan.actions).toEqual([
      expect.objectContaining({
        kind: 'revert',
        step: 'raise',
        desired: 4,
        marker: expect.stringContaining('phase=raising owner=3'),
      }),
    ])
  })

  it('skips a reverted group as reverted, with how to hand it back', () => {
    const plan = planRevert(input({ 'spotswap:revert': 'v1 phase=done' }))
    expect(plan).toEqual({
      skip: { code: 'reverted', detail: expect.stringContaining('remove the tag') },
      actions: [],
    })
  })

  it('skips a stalled revert as revert-stalled, naming what failed and how to retry', () => {
    const plan = planRevert(input({ 'spotswap:revert': 'v1 phase=stalled failed=3 why=not-launched' }))
    expect(plan).toEqual({
      skip: {
        code: 'revert-stalled',
        detail: expect.stringMatching(/launched no member.*spotswap revert/),
      },
      actions: [],
    })
  })

  it('plans the give-back of a raise Auto Scaling launched nothing for by its deadline', () => {
    const since = minutesAgo(60).toISOString()
    const until = minutesAgo(20).toISOString()
    const raised = input({ 'spotswap:revert': `v1 phase=raising owner=3 since=${since} until=${until}` })
    const plan = planRevert({ ...raised, group: { ...raised.group, desiredCapacity: 4 } })
    expect(plan.actions).toEqual([
      expect.objectContaining({
        kind: 'revert',
        step: 'give-back',
        desired: 3,
        marker: expect.stringContaining(`until=${until}`),
      }),
    ])
  })

  it('holds a group whose believed marker it cannot read, and does nothing on it', () => {
    const plan = planRevert(input({ 'spotswap:revert': 'v9 phase=later' }))
    expect(plan.skip?.code).toBe('reverting')
    expect(plan.actions).toEqual([])
  })

  it('lets a replacement ahead of a scheduled event finish first', () => {
    expect(planRevert(input({ ...REQUESTED, [TAG_MAINTENANCE]: 'v1 anything' }))).toEqual({
      skip: undefined,
      actions: [],
    })
  })

  it('refuses to raise where one more unit would launch spot (mixed-instances policy)', () => {
    const mixed = {
      launchTemplate: { id: 'lt-0123', name: undefined, version: '$Default' },
      overrideTypes: [],
      overrides: [],
      onDemandBaseCapacity: 1,
      onDemandPercentageAboveBaseCapacity: 0,
    }
    const plan = planRevert(input(REQUESTED, { mixedInstancesPolicy: mixed }))
    expect(plan.actions).toEqual([])
    expect(plan.skip?.detail).toContain('revert-would-launch-spot')
  })

  it('never retires a protected spot member, and does not call the revert done while one stays', () => {
    const since = minutesAgo(10).toISOString()
    const until = minutesAgo(-30).toISOString()
    const marker = { 'spotswap:revert': `v1 phase=raising owner=3 since=${since} until=${until}` }
    const raised = input(marker, {}, [spotA.id])
    const plan = planRevert({ ...raised, group: { ...raised.group, desiredCapacity: 4 } })
    expect(plan.actions).toEqual([])
    const allOnDemand = input(REQUESTED, {}, [spotA.id, spotB.id])
    expect(planRevert(allOnDemand).skip?.detail).toContain('revert-member-protected')
  })
})
