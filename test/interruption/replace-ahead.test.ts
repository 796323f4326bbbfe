import { describe, expect, it } from 'vitest'
import {
  INTERRUPTION_RUN_DELAYS_SECONDS,
  TAG_INTERRUPTION_WARNED,
  TAG_LAUNCHED_FOR_GROUP,
} from '../../lambdas/core/constants.ts'
import { createHandler } from '../../lambdas/interruption/create-handler.ts'
import * as events from '../events/builders.ts'
import { FakeCloud } from '../fakes/fake-cloud.ts'
import { NOW, seedConvertedGroup, TERMINATING_HOOK, testDeps } from './support.ts'

const REGION = 'us-east-1'
/** EC2's warning, delivered a few seconds after it was given (NOW). */
const WARNED_AT = new Date(NOW.getTime() - 3_000).toISOString()
const interruptionOf = (instanceId: string, action = 'terminate') =>
  events.spotInterruptionWarning({ instanceId, action, region: REGION, time: WARNED_AT })

/** A converted group and a handler that can request replacer runs (the run-request queue is configured). */
const setup = (
  options: Parameters<typeof seedConvertedGroup>[1] = {},
  requestRuns: (region: string, group: string, delays: readonly number[]) => Promise<void> = async () => {},
) => {
  const cloud = new FakeCloud(REGION)
  const seeded = seedConvertedGroup(cloud, options)
  const requested: { region: string; group: string; delays: readonly number[] }[] = []
  const deps = {
    ...testDeps([cloud]),
    requestRuns: async (region: string, group: string, delays: readonly number[]) => {
      requested.push({ region, group, delays })
      await requestRuns(region, group, delays)
    },
  }
  return { cloud, ...seeded, requested, handler: createHandler(deps) }
}

describe('interruption handler replacing a member ahead of its interruption', () => {
  it('marks it and asks for replacer runs, leaving it in service and in its group', async () => {
    const { cloud, ids, requested, handler } = setup()
    const [doomed] = ids as [string]

    const summary = await handler(interruptionOf(doomed), {})

    expect(cloud.mutations).toEqual([
      { method: 'untagInstances', args: [[doomed], [TAG_LAUNCHED_FOR_GROUP]] },
      // Stamped with the time EC2 gave the warning: the replacer counts the two minutes from it.
      { method: 'tagInstances', args: [[doomed], { [TAG_INTERRUPTION_WARNED]: WARNED_AT }] },
    ])
    expect(requested).toEqual([{ region: REGION, group: 'web', delays: INTERRUPTION_RUN_DELAYS_SECONDS }])
    expect(cloud.group('web').members.get(doomed)).toBe('InService')
    expect(cloud.group('web').desiredCapacity).toBe(3)
    expect(summary.results).toEqual([
      expect.objectContaining({ outcome: 'acted', reason: 'interrupted-member', group: 'web' }),
    ])
    expect(summary.results[0]?.detail).toContain('replaced ahead')
  })

  it.each([
    ['an hour before the event', new Date(NOW.getTime() - 3_600_000).toISOString(), WARNED_AT],
    ['after the event', new Date(NOW.getTime() + 3_600_000).toISOString(), WARNED_AT],
    ['by an earlier delivery of this warning', new Date(NOW.getTime() - 60_000).toISOString(), 'kept'],
  ])(
    'believes a warning time already tagged %s only within one notice of the event',
    async (_, tagged, expected) => {
      const { cloud, ids, handler } = setup()
      const [doomed] = ids as [string]
      cloud.seedInstanceTags(doomed, { [TAG_INTERRUPTION_WARNED]: tagged })

      await handler(interruptionOf(doomed), {})

      const stamped = cloud.mutations.find((m) => m.method === 'tagInstances')?.args[1]
      expect(stamped).toEqual({ [TAG_INTERRUPTION_WARNED]: expected === 'kept' ? tagged : expected })
    },
  )

  it('lets it leave at once when the runs cannot be requested, so the group backfills as before', async () => {
    const { cloud, ids, handler } = setup({}, async () => {
      throw new Error('AccessDenied')
    })
    const [doomed] = ids as [string]

    await handler(interruptionOf(doomed), {})

    expect(cloud.mutations.map((m) => m.method)).toEqual([
      'untagInstances',
      'tagInstances',
      'terminateInGroup',
    ])
    expect(cloud.group('web').members.has(doomed)).toBe(false)
    expect(cloud.group('web').desiredCapacity).toBe(3)
  })

  it('lets a member protected from API termination leave at once instead: the replacer may not retire it', async () => {
    const { cloud, ids, requested, handler } = setup()
    const [doomed] = ids as [string]
    cloud.protectedIds.add(doomed)

    await handler(interruptionOf(doomed), {})

    expect(requested).toEqual([])
    expect(cloud.mutations.map((m) => m.method)).toEqual(['untagInstances', 'terminateInGroup'])
  })

  it.each(['stop', 'hibernate'])(
    'does not replace ahead an instance EC2 would %s: it is terminated through its group',
    async (action) => {
      const { cloud, ids, requested, handler } = setup()
      const [doomed] = ids as [string]
      await handler(interruptionOf(doomed, action), {})
      expect(requested).toEqual([])
      expect(cloud.mutations.map((m) => m.method)).toEqual(['untagInstances', 'terminateInGroup'])
    },
  )

  it('keeps terminating through the group when it has a termination hook, and reads no protection', async () => {
    const { cloud, ids, requested, handler } = setup({ hooks: [TERMINATING_HOOK] })
    const [doomed] = ids as [string]
    await handler(interruptionOf(doomed), {})
    expect(requested).toEqual([])
    expect(cloud.calls.map((c) => c.method)).not.toContain('terminationProtected')
    expect(cloud.mutations.map((m) => m.method)).toEqual(['untagInstances', 'terminateInGroup'])
  })

  it.each(['detach', 'terminate'])(
    'never replaces ahead when TERMINATION_NOTIFICATION_ACTION=%s says otherwise',
    async (action) => {
      const { cloud, ids, requested, handler } = setup({
        tags: { 'spot-enabled': 'true', autospotting_termination_notification_action: action },
      })
      const [doomed] = ids as [string]
      await handler(interruptionOf(doomed), {})
      expect(requested).toEqual([])
      expect(cloud.calls.map((c) => c.method)).not.toContain('terminationProtected')
    },
  )

  it('replaces ahead with TERMINATION_NOTIFICATION_ACTION=replace even when the group has a termination hook', async () => {
    const { cloud, ids, requested, handler } = setup({
      hooks: [TERMINATING_HOOK],
      tags: { 'spot-enabled': 'true', autospotting_termination_notification_action: 'replace' },
    })
    const [doomed] = ids as [string]
    await handler(interruptionOf(doomed), {})
    expect(requested).toHaveLength(1)
    expect(cloud.group('web').members.get(doomed)).toBe('InService')
  })

  it('asks again when the warning is delivered twice: runs are idempotent, and a retried delivery must not lose them', async () => {
    const { ids, requested, handler } = setup()
    const [doomed] = ids as [string]
    await handler(interruptionOf(doomed), {})
    await handler(interruptionOf(doomed), {})
    expect(requested).toHaveLength(2)
  })
})
