/**
 * The deadline of a member replaced ahead does not wait in a queue: the handler reminds itself (its
 * deadline queue) and, if the member is still in its group then, makes it leave, whatever the region's
 * replacer runs are doing. Here the region's replacer never runs at all (a slow region).
 */
import { describe, expect, it } from 'vitest'
import {
  DOOMED_SWAP_DEADLINE_SECONDS,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
} from '../../lambdas/core/constants.ts'
import { interruptionDeadlineEvent } from '../../lambdas/core/events/definitions.ts'
import { createHandler } from '../../lambdas/interruption/create-handler.ts'
import * as events from '../events/builders.ts'
import { FakeCloud } from '../fakes/fake-cloud.ts'
import { NOW, seedConvertedGroup, testDeps } from './support.ts'

const REGION = 'us-east-1'
/** EC2's warning, delivered three seconds after it was given. */
const WARNED_AT = new Date(NOW.getTime() - 3_000)

const setup = (sendDeadline: () => Promise<void> = async () => {}) => {
  const cloud = new FakeCloud(REGION)
  const { ids } = seedConvertedGroup(cloud)
  const deadlines: { region: string; instanceId: string; delaySeconds: number }[] = []
  const runs: (readonly number[])[] = []
  const deps = {
    ...testDeps([cloud]),
    // The region's replacer is slow: the requested runs are accepted but never happen here.
    requestRuns: async (_region: string, _group: string, delays: readonly number[]) => {
      runs.push(delays)
    },
    requestDeadline: async (region: string, instanceId: string, delaySeconds: number) => {
      deadlines.push({ region, instanceId, delaySeconds })
      await sendDeadline()
    },
  }
  return { cloud, doomed: ids[0] as string, deadlines, runs, handler: createHandler(deps) }
}

const warning = (instanceId: string) =>
  events.spotInterruptionWarning({
    instanceId,
    action: 'terminate',
    region: REGION,
    time: WARNED_AT.toISOString(),
  })

/** As the deadline queue delivers the reminder: an SQS record whose body is the event. */
const reminder = (instanceId: string) => ({
  Records: [
    {
      eventSource: 'aws:sqs',
      messageId: 'deadline-1',
      body: JSON.stringify(interruptionDeadlineEvent(REGION, instanceId, NOW)),
    },
  ],
})

describe('the deadline of a member replaced ahead', () => {
  it('is requested for the deadline, counted from the warning, along with the replacer runs', async () => {
    const { doomed, deadlines, runs, handler } = setup()
    await handler(warning(doomed), {})
    expect(deadlines).toEqual([
      { region: REGION, instanceId: doomed, delaySeconds: DOOMED_SWAP_DEADLINE_SECONDS - 3 },
    ])
    expect(runs).toHaveLength(1)
  })

  it('makes the member leave without a decrement when no replacement was attached: the group backfills', async () => {
    const { cloud, doomed, handler } = setup()
    await handler(warning(doomed), {})
    cloud.calls.length = 0
    const summary = await handler(reminder(doomed), {})
    expect(cloud.mutations).toEqual([{ method: 'terminateInGroup', args: [doomed, false] }])
    expect(cloud.group('web').members.has(doomed)).toBe(false)
    expect(cloud.group('web').desiredCapacity).toBe(3)
    expect(summary.results).toEqual([
      expect.objectContaining({ kind: 'interruption-deadline', outcome: 'acted', group: 'web' }),
    ])
  })

  it('takes the attach unit with it when a swap attached its replacement but never retired it', async () => {
    const { cloud, doomed, handler } = setup()
    await handler(warning(doomed), {})
    // A replacer run attached a replacement (desired 3 -> 4, recorded) and then its region stalled.
    const replacement = cloud.addInstance({
      lifecycle: 'spot',
      tags: { [TAG_REPLACING_INSTANCE]: doomed, 'spotswap:swap-id': 's1' },
    })
    const record = 'v2 id=s1 phase=waiting owner=3 pairs=1 started=2026-03-02T14:05:00.000Z'
    await cloud.tagGroup('web', { [TAG_SWAP]: record })
    await cloud.attachInstances('web', [replacement.id])
    cloud.calls.length = 0
    await handler(reminder(doomed), {})
    expect(cloud.mutations).toEqual([
      {
        method: 'tagGroup',
        args: [
          'web',
          {
            [TAG_SWAP]: `v2 id=s1 phase=retiring owner=3 pairs=0 step=${doomed} started=2026-03-02T14:05:00.000Z`,
          },
        ],
      },
      { method: 'terminateInGroup', args: [doomed, true] },
    ])
    expect(cloud.group('web').desiredCapacity).toBe(3)
    expect(cloud.group('web').members.get(replacement.id)).toBe('InService')
  })

  it('takes the attach unit with it on a late event too (chaos seed 7507: a retried rebalance recommendation)', async () => {
    const { cloud, doomed, handler } = setup()
    await handler(warning(doomed), {})
    const replacement = cloud.addInstance({
      lifecycle: 'spot',
      tags: { [TAG_REPLACING_INSTANCE]: doomed, 'spotswap:swap-id': 's1' },
    })
    await cloud.tagGroup('web', {
      [TAG_SWAP]: 'v2 id=s1 phase=waiting owner=3 pairs=1 started=2026-03-02T14:05:00.000Z',
      autospotting_rebalance_action: 'detach',
    })
    await cloud.attachInstances('web', [replacement.id])
    cloud.calls.length = 0
    await handler(events.rebalanceRecommendation({ instanceId: doomed, region: REGION }), {})
    expect(cloud.mutations.map((m) => [m.method, m.args.at(-1)])).toContainEqual(['terminateInGroup', true])
    expect(cloud.group('web').desiredCapacity).toBe(3)
  })

  it('does nothing when the member already left (the swap retired it in time)', async () => {
    const { cloud, doomed, handler } = setup()
    await handler(warning(doomed), {})
    await cloud.terminateInGroup(doomed, true)
    cloud.calls.length = 0
    const summary = await handler(reminder(doomed), {})
    expect(cloud.mutations).toEqual([])
    expect(summary.results[0]).toMatchObject({ outcome: 'skipped' })
  })

  it('lets the member leave at once when the reminder cannot be sent', async () => {
    const { cloud, doomed, runs, handler } = setup(async () => {
      throw new Error('AccessDenied')
    })
    await handler(warning(doomed), {})
    expect(cloud.group('web').members.has(doomed)).toBe(false)
    expect(runs).toEqual([])
  })
})
