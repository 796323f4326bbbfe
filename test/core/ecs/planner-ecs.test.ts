/**
 * A group behind an ECS capacity provider, as the planner sees it: a protected member is ECS's statement
 * that tasks run there and is said so; a tagged group whose providers cannot be read starts nothing.
 */
import { describe, expect, it } from 'vitest'
import { TAG_ORIGINAL_MAX_SIZE } from '../../../lambdas/core/constants.ts'
import type { EcsManagement } from '../../../lambdas/core/ecs/capacity-provider.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { launches } from '../../builders/actions.ts'
import { config, onDemandFleet, planInput } from '../../builders/world.ts'

const MANAGED: EcsManagement = {
  kind: 'managed',
  provider: {
    name: 'cp-web',
    status: 'ACTIVE',
    groupArnOrName: 'web',
    managedTerminationProtection: true,
    managedDraining: true,
    managedScaling: true,
  },
  cluster: { kind: 'no-cluster' },
}
const UNREADABLE: EcsManagement = { kind: 'unreadable', error: 'ThrottlingException: Rate exceeded' }
const openSwap = { maxSize: 3, tags: { [TAG_ORIGINAL_MAX_SIZE]: '2', 'spotswap:swap-desired': '3/1' } }

describe('a member ECS protects while it runs tasks', () => {
  it("is kept and said to be ECS's, naming the capacity provider", () => {
    const plan = planGroup(
      planInput(onDemandFleet(1), { ecs: MANAGED, memberOverrides: { protectedFromScaleIn: true } }),
    )
    expect(launches(plan.actions)).toEqual([])
    expect(plan.instanceSkips[0]?.code).toBe('ecs-tasks-running')
    expect(plan.instanceSkips[0]?.reason).toContain('capacity provider cp-web')
    expect(plan.onDemand[0]?.code).toBe('ecs-tasks-running')
  })

  it("is the owner's protection in a group no provider protects", () => {
    const plan = planGroup(
      planInput(onDemandFleet(1), {
        ecs: { kind: 'not-managed', detail: 'no active capacity provider names the group' },
        memberOverrides: { protectedFromScaleIn: true },
      }),
    )
    expect(plan.instanceSkips[0]?.code).toBe('protected-from-scale-in')
  })

  it('is replaced as today once ECS lifted its protection (no tasks left on it)', () => {
    const plan = planGroup(planInput(onDemandFleet(1), { ecs: MANAGED }))
    expect(launches(plan.actions)).toHaveLength(1)
  })
})

describe('a drain swap in a group ECS manages', () => {
  it('takes the member running the fewest tasks first, the oldest among equals', () => {
    const fleet = onDemandFleet(3) as [Instance, Instance, Instance]
    const cluster = 'arn:aws:ecs:us-east-1:123456789012:cluster/web'
    const running = [4, 1, 1]
    const ecs: EcsManagement = {
      ...MANAGED,
      provider: { ...MANAGED.provider, managedDraining: false },
      cluster: {
        kind: 'read',
        clusterArn: cluster,
        containerInstances: new Map(
          fleet.map((i, n) => [
            i.id,
            {
              arn: `${cluster}/${i.id}`,
              ec2InstanceId: i.id,
              status: 'ACTIVE',
              runningTasksCount: running[n] ?? 0,
            },
          ]),
        ),
        tasks: new Map(
          fleet.map((i) => [i.id, { kind: 'read', tasks: [{ arn: `t-${i.id}`, group: 'service:web' }] }]),
        ),
      },
    }
    const plan = planGroup(
      planInput(fleet, {
        ecs,
        memberOverrides: { protectedFromScaleIn: true },
        config: config({ maxReplacementsInFlight: { kind: 'count', value: 1 } }),
      }),
    )
    expect(launches(plan.actions).map((a) => a.replacing)).toEqual([fleet[1].id])
  })
})

describe('a tagged group whose capacity providers could not be read', () => {
  it('starts nothing, naming the error', () => {
    const plan = planGroup(planInput(onDemandFleet(2), { ecs: UNREADABLE }))
    expect(plan.skip?.code).toBe('ecs-capacity-providers-unreadable')
    expect(plan.skipped).toContain('ThrottlingException: Rate exceeded')
    expect(launches(plan.actions)).toEqual([])
  })

  it('still closes its open swap', () => {
    const plan = planGroup(planInput(onDemandFleet(2), { ecs: UNREADABLE, groupOverrides: openSwap }))
    expect(plan.actions).toContainEqual(expect.objectContaining({ kind: 'close-swap', maxSize: 2 }))
  })
})
