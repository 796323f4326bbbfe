/**
 * Commitment reads against moto_server 5.2.1, which answers DescribeReservedInstances "not yet
 * implemented": an unreadable read is a warning and a metric, the region plans as if the account held no
 * commitments, and COMMITMENTS=ignore makes no read at all.
 */
import { DescribeReservedInstancesCommand } from '@aws-sdk/client-ec2'
import { expect, it, vi } from 'vitest'
import type { MetricsSink } from '../../lambdas/core/log.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import { scheduledEvent } from '../events/builders.ts'
import { ec2 } from './support/clients.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { withEnvRestored } from './support/replacer-runs.ts'
import { createGroup, groupState } from './support/world.ts'

/** Six scheduled runs of the replacer with these settings: the metrics each emitted and the summaries. */
const sixRuns = async (env: Record<string, string>) => {
  vi.resetModules()
  Object.assign(process.env, { REGIONS: 'us-east-1', ...env })
  const { createHandler } = await import('../../lambdas/replacer/create-handler.ts')
  const { defaultDeps } = await import('../../lambdas/replacer/default-deps.ts')
  const unreadable: string[] = []
  const metrics: MetricsSink = {
    emit: (dimensions, values) => {
      for (const v of values)
        if (v.name === Metric.CommitmentsUnreadable) unreadable.push(dimensions.Region ?? '')
    },
  }
  let now = new Date()
  const handle = createHandler({ ...defaultDeps(), metrics, now: () => now, requestRun: async () => {} })
  const oks: boolean[] = []
  for (let run = 0; run < 6; run++) {
    oks.push((await handle(scheduledEvent())).ok)
    now = new Date(now.getTime() + 6 * 60_000)
  }
  return { oks, unreadable }
}

describeMoto('commitment reads against moto', (moto) => {
  freshAccountPerTest(moto)

  it(
    'warns and counts an unreadable Reserved Instances read every run, and still converts the group',
    async () => {
      const restore = withEnvRestored()
      try {
        // The quirk this test stands on: if moto ever answers, the unreadable path needs another fault.
        await expect(ec2().send(new DescribeReservedInstancesCommand({}))).rejects.toThrow()
        await createGroup({ name: 'web', desired: 2, min: 0, max: 3, tags: { 'spot-enabled': 'true' } })
        const { oks, unreadable } = await sixRuns({})
        expect(oks.every(Boolean)).toBe(true)
        expect(unreadable).toEqual(Array(6).fill('us-east-1'))
        const state = await groupState('web')
        expect(state.members.map((m) => m.lifecycle)).toEqual(['spot', 'spot'])
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'reads nothing, so warns of nothing, with COMMITMENTS=ignore',
    async () => {
      const restore = withEnvRestored()
      try {
        await createGroup({ name: 'web', desired: 2, min: 0, max: 3, tags: { 'spot-enabled': 'true' } })
        const { oks, unreadable } = await sixRuns({ COMMITMENTS: 'ignore' })
        expect(oks.every(Boolean)).toBe(true)
        expect(unreadable).toEqual([])
        expect((await groupState('web')).members.map((m) => m.lifecycle)).toEqual(['spot', 'spot'])
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})
