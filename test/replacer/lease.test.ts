/**
 * A region run's lease on its fan-out message (lambdas/core/region/lease.ts): on Lambda, the run first
 * shortens its message's visibility to one lease, renews it before a write step once it runs short, and
 * starts no write once the lease it holds leaves less than one write step's margin.
 */
import { describe, expect, it } from 'vitest'
import { FANOUT_LEASE_SECONDS, REGION_LANES } from '../../lambdas/core/constants.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import { laneMessageGroupId, laneOf } from '../../lambdas/core/region/lanes.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, START } from './support.ts'

const QUEUE = 'https://sqs/q.fifo'
const onLambda = {
  AWS_LAMBDA_FUNCTION_NAME: 'spotswap-replacer',
  FANOUT_QUEUE_URL: QUEUE,
  // 12 on-demand members and a quarter in flight: three launches planned in one run.
  MAX_REPLACEMENTS_IN_FLIGHT: '25%',
}
const lane = laneOf('web', REGION_LANES)
/** A fan-out record received a second before the run starts, with its receipt handle. */
const record = (receiptHandle?: string) => ({
  Records: [
    {
      eventSource: 'aws:sqs',
      messageId: 'm1',
      ...(receiptHandle === undefined ? {} : { receiptHandle }),
      body: JSON.stringify({
        source: 'spotswap',
        'detail-type': 'Region Work',
        region: 'us-east-1',
        detail: { region: 'us-east-1', lane },
      }),
      attributes: {
        ApproximateFirstReceiveTimestamp: String(START.getTime() - 1000),
        ApproximateReceiveCount: '1',
        MessageGroupId: laneMessageGroupId('us-east-1', lane),
      },
    },
  ],
})
const context = { getRemainingTimeInMillis: () => 60_000 }

/** A harness whose ChangeMessageVisibility calls are recorded and answered by `answer`, in turn. */
const leased = (cloud: FakeCloud, answer: (call: number) => Error | undefined = () => undefined) => {
  const changes: { queueUrl: string; receiptHandle: string; seconds: number; atMs: number; calls: number }[] =
    []
  const h = harness({ 'us-east-1': cloud }, onLambda, START, {
    changeVisibility: async (queueUrl, receiptHandle, seconds) => {
      changes.push({
        queueUrl,
        receiptHandle,
        seconds,
        atMs: cloud.now().getTime(),
        calls: cloud.calls.length,
      })
      const error = answer(changes.length)
      if (error) throw error
    },
  })
  // Each CreateFleet takes 25 s of the run's time.
  const launch = cloud.launchSpot.bind(cloud)
  cloud.launchSpot = async (request) => {
    h.advanceSeconds(25)
    return launch(request)
  }
  return { h, changes }
}

const launches = (cloud: FakeCloud) => cloud.mutations.filter((c) => c.method === 'launchSpot').length
const metric = (h: ReturnType<typeof harness>, name: string) =>
  h.recorded.metrics.flatMap((m) => m.values).filter((v) => v.name === name)

describe('a region run’s lease on its fan-out message', () => {
  it('is taken before the run reads anything, with the record’s receipt handle', async () => {
    const cloud = cloudWithFleet(12)
    const { h, changes } = leased(cloud)
    await h.run(record('rh-1'), context)
    expect(changes[0]).toEqual({
      queueUrl: QUEUE,
      receiptHandle: 'rh-1',
      seconds: FANOUT_LEASE_SECONDS,
      atMs: START.getTime(),
      calls: 0,
    })
  })

  it('is renewed before a write once it runs short, so the run writes until Lambda stops it', async () => {
    const cloud = cloudWithFleet(12)
    const { h, changes } = leased(cloud)
    const summary = await h.run(record('rh-1'), context)
    // 0 s: taken, first launch; 25 s: 15 s of lease left, renewed, second launch; 50 s: Lambda's 10 s
    // left stop the third.
    expect(launches(cloud)).toBe(2)
    expect(changes.map((c) => (c.atMs - START.getTime()) / 1000)).toEqual([0, 25])
    expect(summary.regions[0]?.groups?.find((g) => g.group === 'web')?.timeBudget).toMatchObject({
      detail: expect.stringMatching(/before Lambda stops the run/),
    })
    expect(metric(h, Metric.FanoutLeasesLost)).toEqual([])
  })

  it('stops the run’s writes when a renewal fails, and says why', async () => {
    const cloud = cloudWithFleet(12)
    const { h } = leased(cloud, (call) =>
      call > 1 ? new Error('AWS.SimpleQueueService.Throttled') : undefined,
    )
    const summary = await h.run(record('rh-1'), context)
    // At 25 s the lease has 15 s left, under the write margin, and could not be renewed: no second launch.
    expect(launches(cloud)).toBe(1)
    expect(summary.regions[0]?.groups?.find((g) => g.group === 'web')?.timeBudget).toMatchObject({
      detail: expect.stringMatching(/of the run's lease on its fan-out message/),
    })
    // Each write that found the lease short tried once more, and each failure is counted.
    const lost = metric(h, Metric.FanoutLeasesLost)
    expect(lost.length).toBeGreaterThanOrEqual(1)
    expect(lost.every((v) => v.value === 1)).toBe(true)
    expect(
      h.recorded.logs.find((l) => l.message === 'fan-out message lease not renewed')?.attributes,
    ).toMatchObject({
      region: 'us-east-1',
      messageId: 'm1',
      detail: expect.stringContaining('AWS.SimpleQueueService.Throttled'),
    })
  })

  it('keeps the receipt’s bound when it cannot be taken: the queue hides the message the whole run', async () => {
    const cloud = cloudWithFleet(12)
    const { h, changes } = leased(cloud, () => new Error('AccessDenied'))
    await h.run(record('rh-1'), context)
    expect(launches(cloud)).toBe(2)
    expect(changes.length).toBeGreaterThanOrEqual(1)
  })

  it('is not taken without a receipt handle: the receipt’s bound stands', async () => {
    const cloud = cloudWithFleet(12)
    const { h, changes } = leased(cloud)
    await h.run(record(), context)
    expect(changes).toEqual([])
    expect(launches(cloud)).toBe(2)
  })
})
