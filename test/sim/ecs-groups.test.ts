/**
 * A group behind an ECS capacity provider under simulation: the real adapter reads the providers through
 * the simulated ECS client, the members ECS protects are kept with ECS's reason, the others converted.
 */
import { describe, expect, it } from 'vitest'
import { TAG_ECS_MANAGED } from '../../lambdas/core/ecs/capacity-provider.ts'
import { simClients } from '../../tools/sim/sdk/clients.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import { group, parse, REGION, rawScenario, testWorld } from './support.ts'

const tasks = (ecs: Record<string, unknown> | undefined) =>
  group('tasks', { min: 0, max: 6, desired: 4, protectedFromScaleIn: 2, ...(ecs ? { ecs } : {}) })

const reasonsOf = (report: Awaited<ReturnType<typeof simulate>>) =>
  (report.groups.tasks?.stillOnDemand ?? []).map((s) => s.reason)

describe('an ECS capacity-provider group in the simulator', () => {
  it("carries the AmazonECSManaged tag and a provider naming it, beside Fargate's", async () => {
    const sim = testWorld(rawScenario([tasks({ managedScaling: {} })]))
    expect(sim.group('tasks').tags[TAG_ECS_MANAGED]).toBe('')
    const providers = await sim.cloud().ecsCapacityProviders()
    expect(providers).toEqual([
      expect.objectContaining({
        name: 'tasks-capacity',
        groupArnOrName: expect.stringMatching(/:autoScalingGroupName\/tasks$/),
        managedTerminationProtection: true,
        managedDraining: true,
        managedScaling: true,
      }),
    ])
  })

  it('pages DescribeCapacityProviders as ECS does: at most ten, maxResults 1 to 10', async () => {
    const groups = Array.from({ length: 9 }, (_, i) => group(`tasks${i}`, { desired: 1, ecs: {} }))
    const sim = testWorld(rawScenario(groups))
    const session = { id: 99, actor: 'replacer' as const, region: REGION, crashed: false, failedCalls: 0 }
    const { ecs } = simClients(sim.world, REGION, session)
    const first = await ecs?.describeCapacityProviders({})
    expect(first?.capacityProviders).toHaveLength(10)
    const rest = await ecs?.describeCapacityProviders({ nextToken: first?.nextToken })
    expect(rest).toMatchObject({ nextToken: undefined, capacityProviders: [{ name: 'tasks8-capacity' }] })
    await expect(ecs?.describeCapacityProviders({ maxResults: 11 })).rejects.toMatchObject({
      name: 'InvalidParameterException',
    })
  })

  it('keeps the members that run a standalone task ECS never moves, converts the rest, with no violation', async () => {
    const report = await simulate(parse(rawScenario([tasks({})])))
    expect(report.groups.tasks?.final).toMatchObject({ inService: 4, spot: 2, onDemand: 2 })
    // The simulator's protected members each run a standalone task (sim/ecs-cluster.ts seedCluster).
    expect(reasonsOf(report)).toEqual(['ecs-standalone-task', 'ecs-standalone-task'])
    expect(report.violations).toEqual([])
  })

  it.each([
    ['without the provider', undefined],
    ['whose provider has managed termination protection off', { managedTerminationProtection: false }],
  ])("keeps them as the owner's %s", async (_, ecs) => {
    const report = await simulate(parse(rawScenario([tasks(ecs)])))
    expect(reasonsOf(report)).toEqual(['protected-from-scale-in', 'protected-from-scale-in'])
  })
})
