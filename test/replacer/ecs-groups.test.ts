/**
 * ECS capacity providers through the replacer: read only when a managed group carries AmazonECSManaged,
 * and a read that fails holds back only the tagged group.
 */
import { describe, expect, it } from 'vitest'
import { TAG_ECS_MANAGED } from '../../lambdas/core/ecs/capacity-provider.ts'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import { awsError, type FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, START } from './support.ts'

const launchesFor = (cloud: FakeCloud, group: string) =>
  cloud.calls.filter(
    (c) =>
      c.method === 'launchSpot' &&
      (c.args[0] as { tags: Record<string, string> }).tags['launched-for-asg'] === group,
  )
const providerReads = (cloud: FakeCloud) => cloud.calls.filter((c) => c.method === 'ecsCapacityProviders')
const groupResult = (summary: ReplacerSummary, group: string) =>
  summary.regions[0]?.groups?.find((g) => g.group === group)

/** `web` (untagged) and `tasks` (AmazonECSManaged), two on-demand members each. */
const withEcsGroup = (): FakeCloud => {
  const cloud = cloudWithFleet(2)
  cloud.addGroup('tasks', { maxSize: 2, tags: { 'spot-enabled': 'true', [TAG_ECS_MANAGED]: '' } })
  for (let i = 0; i < 2; i++)
    cloud.addInstance({
      group: 'tasks',
      zone: 'us-east-1d',
      launchTime: new Date(START.getTime() - (200 - i) * 60_000),
    })
  cloud.capacityProviders.push({
    name: 'cp-tasks',
    status: 'ACTIVE',
    groupArnOrName: 'tasks',
    managedTerminationProtection: true,
    managedDraining: true,
    managedScaling: true,
  })
  return cloud
}

describe('ECS capacity providers', () => {
  it('are never read in a region without a group tagged AmazonECSManaged', async () => {
    const cloud = cloudWithFleet(2)
    await harness({ 'us-east-1': cloud }).run()
    expect(providerReads(cloud)).toEqual([])
    expect(launchesFor(cloud, 'web').length).toBeGreaterThan(0)
  })

  it('are read once a run when a group carries the tag; its unprotected members are replaced as today', async () => {
    const cloud = withEcsGroup()
    const summary = await harness({ 'us-east-1': cloud }).run()
    expect(providerReads(cloud)).toHaveLength(1)
    expect(groupResult(summary, 'tasks')?.skipCode).toBeUndefined()
    expect(launchesFor(cloud, 'tasks').length).toBeGreaterThan(0)
  })

  it('unreadable: the tagged group starts nothing, named; the other group goes on', async () => {
    const cloud = withEcsGroup()
    cloud.failNext('ecsCapacityProviders', awsError('AccessDeniedException', 400, 'not authorized'))
    const h = harness({ 'us-east-1': cloud })
    const summary = await h.run()
    expect(launchesFor(cloud, 'tasks')).toEqual([])
    expect(launchesFor(cloud, 'web').length).toBeGreaterThan(0)
    expect(groupResult(summary, 'tasks')).toMatchObject({
      skipCode: 'ecs-capacity-providers-unreadable',
      skipped: expect.stringContaining('AccessDeniedException: not authorized'),
    })
    expect(groupResult(summary, 'web')?.skipCode).toBeUndefined()
    expect(h.recorded.logs).toContainEqual({
      level: 'warn',
      message: 'ECS capacity providers unreadable: groups tagged AmazonECSManaged start nothing this run',
      attributes: { region: 'us-east-1', error: 'AccessDeniedException: not authorized' },
    })
    expect(h.recorded.metrics).toContainEqual({
      dimensions: { Region: 'us-east-1' },
      values: [{ name: 'EcsCapacityProvidersUnreadable', unit: 'Count', value: 1 }],
    })
  })
})
