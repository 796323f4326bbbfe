/**
 * Two groups for the tests of a failed read: `web` goes on, `api` has an open swap that the next run
 * finishes and one more on-demand member the next run launches for.
 */
import { expect } from 'vitest'
import { TAG_NO_SPOT_CAPACITY_UNTIL, TAG_SWAP } from '../../lambdas/core/constants.ts'
import { trafficSourceKey } from '../../lambdas/core/port.ts'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, START } from './support.ts'

const TG = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/api/0123456789abcdef'
const STACK_TAG = 'aws:cloudformation:stack-name'

const BACKOFF_ENDS = new Date(START.getTime() + 7 * 60_000).toISOString()

/** The group's members, those draining out of it after their retirement left out. */
export const membersOf = (cloud: FakeCloud, group: string) => cloud.staying(group)
export const launchesFor = (cloud: FakeCloud, group: string) =>
  cloud.calls.filter(
    (c) =>
      c.method === 'launchSpot' &&
      (c.args[0] as { tags: Record<string, string> }).tags['launched-for-asg'] === group,
  )
/** What a failed read of one group emits: one count of its metric. */
export const countedOnce = (group: string, name: string) => ({
  dimensions: { Region: 'us-east-1', Group: group },
  values: [{ name, unit: 'Count', value: 1 }],
})

export const groupResult = (summary: ReplacerSummary, group: string) =>
  summary.regions[0]?.groups?.find((g) => g.group === group)

/**
 * `web`: two on-demand members, no load balancer, whose replacements start in the third run. `api`: behind a target group, one member swapped and
 * waiting for its replacement to serve (an open swap), one more on-demand member not replaced yet (one
 * replacement in flight at a time). Returns the harness and the open swap's partner and replacement.
 */
export const withOpenSwap = async () => {
  const cloud = cloudWithFleet(2, { tags: { 'spot-enabled': 'true', [STACK_TAG]: 'web-stack' } })
  // web's members too start their replacements in the third run.
  for (const id of membersOf(cloud, 'web')) {
    const instance = cloud.instances.get(id)
    if (instance !== undefined) instance.tags = { [TAG_NO_SPOT_CAPACITY_UNTIL]: BACKOFF_ENDS }
  }
  cloud.addGroup('api', {
    maxSize: 2,
    tags: { 'spot-enabled': 'true', [STACK_TAG]: 'api-stack' },
    trafficSources: { targetGroupArns: [TG], classicLoadBalancerNames: [], unreadable: [] },
  })
  cloud.healthSettings.set(trafficSourceKey('target-group', TG), { intervalSeconds: 30, healthyThreshold: 3 })
  for (let i = 0; i < 2; i++)
    cloud.addInstance({
      group: 'api',
      zone: 'us-east-1d',
      launchTime: new Date(START.getTime() - (200 - i) * 60_000),
      // The second is backed off until just before the third run, which then starts its replacement.
      tags: i === 0 ? {} : { [TAG_NO_SPOT_CAPACITY_UNTIL]: BACKOFF_ENDS },
    })
  const [partner, waiting] = membersOf(cloud, 'api') as [string, string]
  const h = harness({ 'us-east-1': cloud })
  await h.run()
  h.advanceMinutes(6)
  await h.run()
  const replacement = membersOf(cloud, 'api').find((id) => id !== partner && id !== waiting) ?? ''
  expect(replacement).not.toBe('')
  expect(cloud.group('api').tags[TAG_SWAP]).toBeDefined()
  cloud.markHealthy(replacement)
  h.advanceMinutes(2)
  cloud.calls.length = 0
  h.recorded.logs.length = 0
  h.recorded.metrics.length = 0
  return { cloud, h, partner, waiting, replacement }
}
