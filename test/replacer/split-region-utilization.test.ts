/**
 * CommitmentUtilization of a region whose work lane is too large for one invocation: the run that splits
 * it into chunks publishes the region's one point, and no chunk does.
 */
import { describe, expect, it } from 'vitest'
import type { Commitments } from '../../lambdas/core/commitments/types.ts'
import { REGION_LANES } from '../../lambdas/core/constants.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import { laneOf } from '../../lambdas/core/region/lanes.ts'
import { commitments, ri } from '../builders/commitments.ts'
import { cloudWithFleet, harness } from './support.ts'

/** One m5.large RI, used by a standalone on-demand instance the region listing shows. */
const HELD: Commitments = commitments({
  reservedInstances: [ri('ri-1', 'm5.large')],
  regionOnDemand: [
    {
      id: 'i-standalone',
      type: 'm5.large',
      zone: 'us-east-1a',
      platform: 'Linux/UNIX',
      tenancy: 'default',
      launchTimeMs: 0,
    },
  ],
  regionRunningIds: ['i-standalone'],
})

const regionWork = (groups?: readonly string[]) => ({
  Records: [
    {
      eventSource: 'aws:sqs',
      messageId: groups === undefined ? 'split' : 'chunk',
      body: JSON.stringify({
        source: 'spotswap',
        'detail-type': 'Region Work',
        region: 'us-east-1',
        detail: { region: 'us-east-1', lane: 0, ...(groups === undefined ? {} : { groups }) },
      }),
    },
  ],
})

describe('CommitmentUtilization of a region split into chunks', () => {
  it('is published once, by the splitting run, and by no chunk', async () => {
    const cloud = cloudWithFleet(0)
    const names = Array.from({ length: 4000 }, (_, g) => `g${String(g).padStart(4, '0')}`)
    for (const name of names.filter((n) => laneOf(n, REGION_LANES) === 0).slice(0, 250))
      cloud.addGroup(name, { maxSize: 2 })
    Object.assign(cloud, { readCommitments: async () => HELD })
    const h = harness({ 'us-east-1': cloud }, { FANOUT_QUEUE_URL: 'https://sqs/q.fifo' })
    const points = () =>
      h.recorded.metrics.flatMap((m) =>
        m.values
          .filter((v) => v.name === Metric.CommitmentUtilization)
          .map((v) => [m.dimensions.Region, v.value]),
      )

    const split = await h.run(regionWork())
    expect(split.regions).toEqual([{ region: 'us-east-1', deferredChunks: 2 }])
    expect(points()).toEqual([['us-east-1', 100]])

    const chunks = h.recorded.enqueued.map((m) => JSON.parse(m.body).detail.groups as string[])
    for (const chunk of chunks) await h.run(regionWork(chunk))
    expect(points()).toEqual([['us-east-1', 100]])
  })
})
