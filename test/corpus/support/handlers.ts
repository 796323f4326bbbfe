/**
 * Both Lambdas wired to fake clouds and recorders, the way their own tests wire them: the replacer
 * through its createHandler(deps), the interruption handler through createHandler(deps).
 */
import { createHandler } from '../../../lambdas/interruption/create-handler.ts'
import { createHandler as createReplacer } from '../../../lambdas/replacer/create-handler.ts'
import type { FakeCloud } from '../../fakes/fake-cloud.ts'
import { recorders } from './telemetry.ts'
import { START } from './worlds.ts'

/** Which clouds the handler asked for, so "no AWS call at all" includes not even creating a client. */
const cloudDirectory = (clouds: readonly FakeCloud[]) => {
  const asked: string[] = []
  const cloudFor = (region: string): FakeCloud => {
    asked.push(region)
    const cloud = clouds.find((candidate) => candidate.region === region)
    if (cloud === undefined) throw new Error(`corpus: no fake cloud for ${region}`)
    return cloud
  }
  return { asked, cloudFor }
}

export const replacerHarness = (clouds: readonly FakeCloud[], env: Readonly<Record<string, string>>) => {
  let now = START
  const telemetry = recorders()
  const directory = cloudDirectory(clouds)
  const regionLookups: number[] = []
  const enqueued: string[] = []
  for (const cloud of clouds) cloud.now = () => now
  const replace = createReplacer({
    env,
    now: () => now,
    log: telemetry.log,
    metrics: telemetry.metrics,
    cloudFor: directory.cloudFor,
    regionDirectory: {
      enabledRegions: async () => {
        regionLookups.push(now.getTime())
        return clouds.map((c) => c.region).sort()
      },
    },
    enqueue: async (queueUrl) => {
      enqueued.push(queueUrl)
    },
  })
  return {
    ...telemetry,
    cloudsAsked: directory.asked,
    regionLookups,
    enqueued,
    run: (event: unknown) => replace(event),
    advanceMinutes: (minutes: number): void => {
      now = new Date(now.getTime() + minutes * 60_000)
    },
  }
}

export const interruptionHarness = (clouds: readonly FakeCloud[], env: Readonly<Record<string, string>>) => {
  const telemetry = recorders()
  const directory = cloudDirectory(clouds)
  const handler = createHandler({
    env,
    cloudFor: directory.cloudFor,
    log: telemetry.log,
    metrics: telemetry.metrics,
    now: () => START,
  })
  return { ...telemetry, cloudsAsked: directory.asked, handle: (event: unknown) => handler(event, {}) }
}

export const SCHEDULED_EVENT = {
  version: '0',
  id: 'corpus-schedule-tick',
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '123456789012',
  time: START.toISOString(),
  region: 'us-east-1',
  resources: ['arn:aws:events:us-east-1:123456789012:rule/spotswap-replacer-schedule'],
  detail: {},
}

export const interruptionWarning = (instanceId: string, region = 'us-east-1') => ({
  version: '0',
  id: `corpus-interruption-${instanceId}`,
  'detail-type': 'EC2 Spot Instance Interruption Warning',
  source: 'aws.ec2',
  account: '123456789012',
  time: START.toISOString(),
  region,
  resources: [`arn:aws:ec2:${region}b:instance/${instanceId}`],
  detail: { 'instance-id': instanceId, 'instance-action': 'terminate' },
})
