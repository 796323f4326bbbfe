import { describe, expect, it } from 'vitest'
import {
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACING_INSTANCE,
} from '../../lambdas/core/constants.ts'
import { createHandler } from '../../lambdas/interruption/create-handler.ts'
import * as events from '../events/builders.ts'
import { FakeCloud } from '../fakes/fake-cloud.ts'
import { NOW, seedConvertedGroup, TERMINATING_HOOK, testDeps } from './support.ts'

const REGION = 'us-east-1'
const interruptionOf = (instanceId: string, action = 'terminate') =>
  events.spotInterruptionWarning({ instanceId, action, region: REGION })
const rebalanceOf = (instanceId: string) => events.rebalanceRecommendation({ instanceId, region: REGION })

const setup = (options: Parameters<typeof seedConvertedGroup>[1] = {}, env: Record<string, string> = {}) => {
  const cloud = new FakeCloud(REGION)
  const seeded = seedConvertedGroup(cloud, options)
  const deps = testDeps([cloud], env)
  return { cloud, ...seeded, deps, handler: createHandler(deps) }
}

const liveMembers = (cloud: FakeCloud, name = 'web') => [...cloud.group(name).members.keys()]

describe('interruption handler', () => {
  describe('an interruption warning for a spot member of a converted group', () => {
    it('terminates it through its group without a decrement, and the group backfills with on-demand at once', async () => {
      const { cloud, ids, handler } = setup()
      const [doomed] = ids as [string]

      const summary = await handler(interruptionOf(doomed), {})

      expect(cloud.mutations).toEqual([
        { method: 'untagInstances', args: [[doomed], [TAG_LAUNCHED_FOR_GROUP]] },
        { method: 'terminateInGroup', args: [doomed, false] },
      ])
      const group = cloud.group('web')
      expect(group.desiredCapacity).toBe(3)
      expect(liveMembers(cloud)).not.toContain(doomed)
      const backfill = liveMembers(cloud).filter((id) => !ids.includes(id))
      expect(backfill.map((id) => cloud.instances.get(id)?.lifecycle)).toEqual(['on-demand'])
      expect(summary.results).toEqual([
        expect.objectContaining({
          kind: 'spot-interruption',
          instanceId: doomed,
          region: REGION,
          group: 'web',
          managed: true,
          outcome: 'acted',
          reason: 'interrupted-member',
        }),
      ])
    })

    it('removes launched-for-asg so the replacer never picks the doomed instance up again', async () => {
      const { cloud, ids, handler } = setup()
      const [doomed] = ids as [string]
      await handler(interruptionOf(doomed), {})
      expect(cloud.instances.get(doomed)?.tags).not.toHaveProperty(TAG_LAUNCHED_FOR_GROUP)
      expect((await cloud.describeLaunchedSpotInstances()).map((i) => i.id)).not.toContain(doomed)
    })

    it('terminates through the group when it has a termination hook, so draining runs', async () => {
      const { cloud, ids, handler } = setup({ hooks: [TERMINATING_HOOK] })
      const [doomed] = ids as [string]
      await handler(interruptionOf(doomed), {})
      expect(cloud.mutations.map((m) => [m.method, ...m.args])).toEqual([
        ['untagInstances', [doomed], [TAG_LAUNCHED_FOR_GROUP]],
        ['terminateInGroup', doomed, false],
      ])
      expect(cloud.group('web').members.get(doomed)).toBe('Terminating:Wait')
      expect(cloud.group('web').desiredCapacity).toBe(3)
    })

    it.each(['stop', 'hibernate'])(
      'terminates an instance EC2 would %s through its group, leaving nothing stopped',
      async (action) => {
        const { cloud, ids, handler } = setup()
        const [doomed] = ids as [string]
        await handler(interruptionOf(doomed, action), {})
        expect(cloud.mutations.map((m) => m.method)).toEqual(['untagInstances', 'terminateInGroup'])
        expect(cloud.instances.get(doomed)?.state).toBe('terminated')
      },
    )

    it('is harmless when delivered twice: the second delivery makes no call that changes anything', async () => {
      const { cloud, ids, handler } = setup()
      const [doomed] = ids as [string]
      await handler(interruptionOf(doomed), {})
      const afterFirst = cloud.mutations.length
      const desired = cloud.group('web').desiredCapacity

      const second = await handler(interruptionOf(doomed), {})

      expect(cloud.mutations).toHaveLength(afterFirst)
      expect(cloud.group('web').desiredCapacity).toBe(desired)
      expect(second.results).toEqual([
        expect.objectContaining({ outcome: 'skipped', reason: 'instance-gone' }),
      ])
    })

    it('acts once when the same event arrives twice in one SQS batch', async () => {
      const { cloud, ids, handler } = setup()
      const [doomed] = ids as [string]
      const summary = await handler(events.viaSqs(interruptionOf(doomed), interruptionOf(doomed)), {})
      const leaving = cloud.calls.filter((c) => c.method === 'terminateInGroup')
      expect(leaving).toHaveLength(2)
      expect(cloud.group('web').desiredCapacity).toBe(3)
      expect(liveMembers(cloud)).toHaveLength(3)
      expect(summary.results.map((r) => r.outcome).sort()).toEqual(['acted', 'skipped'])
      expect(summary.results.find((r) => r.outcome === 'skipped')?.reason).toBe('already-handled')
    })

    it('is harmless while the termination hook still holds the instance', async () => {
      const { cloud, ids, handler } = setup({ hooks: [TERMINATING_HOOK] })
      const [doomed] = ids as [string]
      await handler(interruptionOf(doomed), {})
      const afterFirst = cloud.mutations.length
      const late = await handler(interruptionOf(doomed), {})
      expect(cloud.mutations).toHaveLength(afterFirst)
      expect(late.results[0]).toMatchObject({ outcome: 'skipped', reason: 'already-leaving-group' })
    })

    it('terminates a spot instance launched for the group but not attached yet, and nothing else', async () => {
      const { cloud, handler } = setup()
      // Launched from the group's template (EC2's tag) and recorded by its partner: spotswap's launch.
      const partner = [...cloud.group('web').members.keys()][0] as string
      const pending = cloud.addInstance({
        lifecycle: 'spot',
        tags: {
          [TAG_LAUNCHED_FOR_GROUP]: 'web',
          [TAG_REPLACING_INSTANCE]: partner,
          'aws:ec2launchtemplate:id': 'lt-0123456789abcdef0',
        },
      })
      cloud.seedInstanceTags(partner, {
        'spotswap:replacement-attempt': `1:${pending.id}@2026-01-01T00:00:00.000Z`,
      })
      const summary = await handler(interruptionOf(pending.id), {})
      expect(cloud.mutations).toEqual([{ method: 'terminateInstances', args: [[pending.id]] }])
      expect(cloud.group('web').desiredCapacity).toBe(3)
      expect(summary.results[0]).toMatchObject({ outcome: 'acted', reason: 'unattached-launched-instance' })
    })
  })

  describe('instances that are not spotswap’s', () => {
    it('leaves an instance of an untagged group untouched, without reading its hooks or acting', async () => {
      const { cloud, handler } = setup()
      const other = cloud.addGroup('legacy', { tags: {} })
      const foreign = cloud.addInstance({ group: 'legacy', lifecycle: 'spot' })
      const summary = await handler(interruptionOf(foreign.id), {})
      expect(cloud.mutations).toEqual([])
      expect(other.members.has(foreign.id)).toBe(true)
      expect(summary.results[0]).toMatchObject({
        outcome: 'skipped',
        reason: 'group-not-managed',
        group: 'legacy',
        managed: false,
      })
    })

    it('leaves an instance in no group untouched', async () => {
      const { cloud, handler } = setup()
      const loose = cloud.addInstance({ lifecycle: 'spot' })
      const summary = await handler(interruptionOf(loose.id), {})
      expect(cloud.mutations).toEqual([])
      expect(summary.results[0]).toMatchObject({ outcome: 'skipped', reason: 'no-group' })
    })

    it('reads the same tag filters as the replacer', async () => {
      const { cloud, ids, handler } = setup({ tags: { team: 'web' } }, { TAG_FILTERS: 'team=web*' })
      await handler(interruptionOf(ids[0] as string), {})
      expect(cloud.mutations.map((m) => m.method)).toContain('terminateInGroup')
    })

    it('ignores an event from a region outside REGIONS without calling AWS', async () => {
      const { cloud, ids, deps } = setup({}, { REGIONS: 'eu-*' })
      const summary = await createHandler(deps)(interruptionOf(ids[0] as string), {})
      expect(deps.cloudsAsked).toEqual([])
      expect(cloud.calls).toEqual([])
      expect(summary.results[0]).toMatchObject({ outcome: 'ignored', reason: 'region-not-enabled' })
    })

    it('touches nothing while TAG_FILTERS is invalid: guessing could act on groups never enabled', async () => {
      const { cloud, ids, handler } = setup({}, { TAG_FILTERS: 'no-equals-sign' })
      const summary = await handler(interruptionOf(ids[0] as string), {})
      expect(cloud.calls).toEqual([])
      expect(summary.results[0]).toMatchObject({ outcome: 'ignored', reason: 'configuration-invalid' })
      expect(summary.results[0]?.detail).toContain('TAG_FILTERS')
    })
  })

  describe('a rebalance recommendation', () => {
    it('requests a replacement by tagging the at-risk member, once', async () => {
      const { cloud, ids, handler } = setup()
      const [atRisk] = ids as [string]
      await handler(rebalanceOf(atRisk), {})
      await handler(rebalanceOf(atRisk), {})
      expect(cloud.mutations).toEqual([
        { method: 'tagInstances', args: [[atRisk], { [TAG_REBALANCE_AT_RISK]: NOW.toISOString() }] },
      ])
      expect(cloud.group('web').members.get(atRisk)).toBe('InService')
    })

    it('makes the member leave through its group when the group says detach (hooks and draining run; no TerminateInstances)', async () => {
      const { cloud, ids, handler } = setup({
        tags: { 'spot-enabled': 'true', autospotting_rebalance_action: 'detach' },
      })
      const [atRisk] = ids as [string]
      await handler(rebalanceOf(atRisk), {})
      expect(cloud.mutations.map((m) => [m.method, ...m.args])).toEqual([
        ['untagInstances', [atRisk], [TAG_LAUNCHED_FOR_GROUP]],
        ['terminateInGroup', atRisk, false],
      ])
      expect(cloud.instances.get(atRisk)?.state).toBe('terminated')
      expect(cloud.group('web').desiredCapacity).toBe(3)
    })

    it('does nothing when REBALANCE_ACTION is ignore', async () => {
      const { cloud, ids, handler } = setup({}, { REBALANCE_ACTION: 'ignore' })
      const summary = await handler(rebalanceOf(ids[0] as string), {})
      expect(cloud.mutations).toEqual([])
      expect(summary.results[0]).toMatchObject({
        outcome: 'skipped',
        reason: 'rebalance-ignored',
        managed: true,
      })
    })
  })

  it('with DRY_RUN=true observes and reports the plan without changing anything', async () => {
    const { cloud, ids, handler } = setup({}, { DRY_RUN: 'true' })
    const [doomed] = ids as [string]
    const summary = await handler(interruptionOf(doomed), {})
    expect(cloud.mutations).toEqual([])
    expect(summary.results[0]).toMatchObject({
      outcome: 'dry-run',
      actions: [
        expect.objectContaining({ kind: 'untag-instance' }),
        expect.objectContaining({ kind: 'terminate-in-group' }),
      ],
    })
  })

  it('calls the API of the region the event is about, not the Lambda’s own', async () => {
    const east = new FakeCloud('us-east-1')
    const west = new FakeCloud('us-west-2')
    const { ids } = seedConvertedGroup(west)
    const deps = testDeps([east, west], { AWS_REGION: 'us-east-1' })
    await createHandler(deps)(
      events.spotInterruptionWarning({ instanceId: ids[0] as string, region: 'us-west-2' }),
      {},
    )
    expect(deps.cloudsAsked).toEqual(['us-west-2'])
    expect(east.calls).toEqual([])
    expect(west.mutations.map((m) => m.method)).toEqual(['untagInstances', 'terminateInGroup'])
  })

  it('needs two rounds of reads and no more than two writes for an interruption', async () => {
    const { cloud, ids, handler } = setup({ hooks: [TERMINATING_HOOK] })
    await handler(interruptionOf(ids[0] as string), {})
    expect(cloud.calls.map((c) => c.method)).toEqual([
      'describeInstances',
      'groupOfInstances',
      'describeGroups',
      'lifecycleHooks',
      'untagInstances',
      'terminateInGroup',
    ])
    // The group is read by name: one request, however many groups the region has.
    expect(cloud.calls.find((c) => c.method === 'describeGroups')?.args[0]).toMatchObject({
      names: ['web'],
    })
  })
})
