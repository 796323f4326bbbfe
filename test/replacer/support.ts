/** The replacer Lambda against a FakeCloud: a fleet to start from, a clock to move, what it logged. */
import { TAG_REPLACEMENT_ATTEMPT } from '../../lambdas/core/constants.ts'
import type { Log, MetricsSink } from '../../lambdas/core/log.ts'
import { laneMessageGroupId } from '../../lambdas/core/region/lanes.ts'
import type { SpotPrice } from '../../lambdas/core/types.ts'
import { embeddedOnDemandPrices } from '../../lambdas/data/on-demand-prices.ts'
import { createHandler } from '../../lambdas/replacer/create-handler.ts'
import type { FanoutMessage, ReplacerDeps } from '../../lambdas/replacer/deps.ts'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { NOW, realSpotPools } from '../builders/world.ts'
import { FakeCloud } from '../fakes/fake-cloud.ts'

/** FakeCloud stamps every launch with this time, so runs start there and age instances by advancing. */
export const START = new Date('2026-01-01T00:00:00Z')

const scheduled = {
  source: 'aws.events',
  'detail-type': 'Scheduled Event',
  region: 'us-east-1',
  detail: {},
}

const priceRows = (): SpotPrice[] =>
  [...realSpotPools()].map(([pool, priceUsd]) => {
    const [instanceType, zone] = pool.split('/') as [string, string]
    return { instanceType, zone, priceUsd, productDescription: 'Linux/UNIX', timestamp: NOW }
  })

export const cloudWithFleet = (count = 3, groupOverrides = {}): FakeCloud => {
  const cloud = new FakeCloud('us-east-1')
  cloud.catalog = embeddedCatalog()
  cloud.spotPrices = priceRows()
  cloud.onDemand = embeddedOnDemandPrices('us-east-1', 'Linux/UNIX')
  cloud.addGroup('web', { maxSize: count, healthCheckGracePeriodSeconds: 300, ...groupOverrides })
  for (let i = 0; i < count; i++) {
    cloud.addInstance({
      group: 'web',
      zone: i % 2 ? 'us-east-1b' : 'us-east-1d',
      launchTime: new Date(START.getTime() - (100 - i) * 60_000),
    })
  }
  return cloud
}

interface Recorded {
  logs: { level: string; message: string; attributes?: Record<string, unknown> }[]
  metrics: { dimensions: Record<string, string>; values: { name: string; value: number }[] }[]
  enqueued: FanoutMessage[]
  /** Delayed runs of one group the replacer asked for (the run-request queue). */
  requested: { region: string; group: string; delaySeconds: number }[]
}

export const harness = (
  clouds: Record<string, FakeCloud>,
  env: Record<string, string> = {},
  start = START,
  extraDeps: Partial<ReplacerDeps> = {},
) => {
  let now = start
  const recorded: Recorded = { logs: [], metrics: [], enqueued: [], requested: [] }
  const log: Log = Object.fromEntries(
    (['debug', 'info', 'warn', 'error'] as const).map((level) => [
      level,
      (message: string, attributes?: Record<string, unknown>) =>
        recorded.logs.push({ level, message, attributes }),
    ]),
  ) as unknown as Log
  const metrics: MetricsSink = {
    emit: (dimensions, values) =>
      recorded.metrics.push({ dimensions: { ...dimensions }, values: [...values] }),
  }
  const deps: ReplacerDeps = {
    env: { REGIONS: 'us-east-1', ...env },
    now: () => now,
    log,
    metrics,
    cloudFor: (region) => {
      const cloud = clouds[region]
      if (!cloud) throw new Error(`no cloud for ${region}`)
      return cloud
    },
    regionDirectory: { enabledRegions: async () => Object.keys(clouds).sort() },
    enqueue: async (_url, messages) => {
      recorded.enqueued.push(...messages)
    },
    requestRun: async (region, group, delaySeconds) => {
      recorded.requested.push({ region, group, delaySeconds })
    },
    ...extraDeps,
  }
  const replace = createHandler(deps)
  for (const cloud of Object.values(clouds)) cloud.now = () => now
  return {
    recorded,
    run: (event: unknown = scheduled, context?: unknown) => replace(event, context),
    advanceMinutes: (minutes: number) => {
      now = new Date(now.getTime() + minutes * 60_000)
    },
    advanceSeconds: (seconds: number) => {
      now = new Date(now.getTime() + seconds * 1000)
    },
  }
}

/** Spot and on-demand members of the group, those draining out of it left out. */
export const spotShare = (cloud: FakeCloud, group = 'web') => {
  const members = cloud.staying(group).map((id) => cloud.instances.get(id))
  return {
    spot: members.filter((i) => i?.lifecycle === 'spot').length,
    onDemand: members.filter((i) => i?.lifecycle === 'on-demand').length,
  }
}

/** Every action outcome of a replacer summary, as it reports them (kind, status, reason, detail). */
export const actionsOf = (summary: ReplacerSummary): Record<string, unknown>[] =>
  summary.regions.flatMap((r) =>
    (r.groups ?? []).flatMap((g) => (g.actions ?? []) as Record<string, unknown>[]),
  )

/** Every instance skip of a replacer summary (instanceId, code, reason). */
export const skipsOf = (summary: ReplacerSummary): Record<string, unknown>[] =>
  summary.regions.flatMap((r) =>
    (r.groups ?? []).flatMap((g) => (g.instanceSkips ?? []) as Record<string, unknown>[]),
  )

/** A spot instance launched for a group deleted since, whose terminated partner records the launch. */
export const strayOf = (cloud: FakeCloud) => {
  const partner = cloud.addInstance({ state: 'terminated' })
  const stray = cloud.addInstance({
    lifecycle: 'spot',
    tags: { 'launched-for-asg': 'deleted-group', 'launched-for-replacing-instance': partner.id },
  })
  cloud.seedInstanceTags(partner.id, { [TAG_REPLACEMENT_ATTEMPT]: `1:${stray.id}@2026-01-01T00:00:00.000Z` })
  return stray
}

/** A fan-out record for `lane` of us-east-1 (none: a message sent before lanes), as Lambda's poller delivers it. */
export const laneRecord = (
  lane: number | undefined,
  messageGroupId = laneMessageGroupId('us-east-1', lane ?? 0),
) => ({
  Records: [
    {
      eventSource: 'aws:sqs',
      messageId: `m-${lane}`,
      body: JSON.stringify({
        source: 'spotswap',
        'detail-type': 'Region Work',
        region: 'us-east-1',
        detail: { region: 'us-east-1', ...(lane === undefined ? {} : { lane }) },
      }),
      attributes: {
        ApproximateFirstReceiveTimestamp: String(START.getTime() - 1000),
        ApproximateReceiveCount: '1',
        MessageGroupId: messageGroupId,
      },
    },
  ],
})
