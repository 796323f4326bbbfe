/**
 * The replacer's composition: turns one invocation (schedule tick, fan-out message, launch event) into
 * region runs and a JSON summary. No SDK here: the cloud comes in through deps.
 */
import type { ConfigError, GlobalConfig } from '../core/config/config.ts'
import { parseGlobalConfig } from '../core/config/global-config.ts'
import { isRegionCovered } from '../core/config/managed.ts'
import { FANOUT_GROUPS_PER_REGION_MESSAGE } from '../core/constants.ts'
import { parseInvocation } from '../core/events/invocation.ts'
import type { Log, MetricsSink } from '../core/log.ts'
import { DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import type { CloudPort, RegionDirectory } from '../core/port.ts'
import type { OnDemandPrices } from '../core/types.ts'
import { regionWorkEvent, replacerEvents } from './event-registry.ts'
import { summarizeOutcome } from './outcome-summary.ts'
import { ReasonMemory, summarizeStillOnDemand } from './reasons.ts'
import { type RegionResult, runRegion } from './run-region.ts'
import { selectRegions } from './select-regions.ts'

export interface FanoutMessage {
  readonly groupId: string
  readonly deduplicationId: string
  readonly body: string
}

export interface ReplacerDeps {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly now: () => Date
  readonly log: Log
  readonly metrics: MetricsSink
  readonly cloudFor: (region: string) => CloudPort
  readonly regionDirectory: RegionDirectory
  readonly enqueue: (queueUrl: string, messages: readonly FanoutMessage[]) => Promise<void>
  /**
   * A run of one group after a delay, through the run-request queue (RUN_REQUEST_QUEUE_URL): a swap
   * waiting for its replacements to serve is looked at again before the next scheduled run. Without it
   * the next scheduled run looks.
   */
  readonly requestRun?: (region: string, group: string, delaySeconds: number) => Promise<void>
}

export interface RegionSummary {
  readonly region: string
  /** A large region handed to this many queued invocations instead of being processed here. */
  readonly deferredChunks?: number
  readonly error?: string
  readonly groups?: readonly Record<string, unknown>[]
  readonly strays?: readonly Record<string, unknown>[]
}

export interface ReplacerSummary {
  readonly ok: boolean
  readonly dryRun: boolean
  readonly configErrors: readonly ConfigError[]
  readonly enqueued?: readonly string[]
  readonly ignored?: readonly { readonly messageId: string | undefined; readonly reason: string }[]
  readonly regions: readonly RegionSummary[]
}

/**
 * Where a group's on-demand prices came from. When the Pricing API gave nothing for its platform they are
 * the embedded table's (us-east-1, August 2023), so its savings are estimates and the summary says so.
 */
const describePrices = (productDescription: string, source: OnDemandPrices['source']) =>
  source === 'pricing-api'
    ? { platform: productDescription, source, savingsEstimated: false }
    : {
        platform: productDescription,
        source,
        savingsEstimated: true,
        note: `no Pricing API answer for ${productDescription}: on-demand prices are the embedded ${productDescription} table's (us-east-1, August 2023${source === 'embedded-us-east-1' ? ', used for a region it does not list' : ''}); savings are estimated`,
      }

const summarizeRegion = (result: RegionResult): RegionSummary => ({
  region: result.region,
  groups: result.groups.map(({ plan, outcomes, prices }) => ({
    group: plan.group,
    ...(plan.skipped ? { skipped: plan.skipped } : {}),
    ...(plan.skip ? { skipCode: plan.skip.code } : {}),
    figures: plan.figures,
    ...(prices === undefined ? {} : { prices: describePrices(prices.productDescription, prices.source) }),
    actions: outcomes.map(summarizeOutcome),
    instanceSkips: plan.instanceSkips,
    ...summarizeStillOnDemand(plan),
  })),
  strays: result.strays.map(summarizeOutcome),
})

/** SQS FIFO deduplication ids: at most 128 characters, alphanumerics and punctuation only. */
const deduplicationId = (...parts: readonly string[]): string =>
  parts
    .join('-')
    .replace(/[^\x21-\x7e]/g, '_')
    .slice(0, 128)

interface Work {
  readonly region: string
  readonly onlyGroups?: readonly string[] | undefined
  readonly messageId: string | undefined
}

/**
 * Deployed (on Lambda), every replacer run of a region must go through the region's message group of the
 * FIFO fan-out queue: the swap relies on no two runs of a region overlapping (core/swap/recover.ts). The
 * CDK app always sets it; a hand-made deployment without it is refused, not run unsafely.
 */
const deploymentErrors = (
  env: Readonly<Record<string, string | undefined>>,
  config: GlobalConfig,
): ConfigError[] =>
  env.AWS_LAMBDA_FUNCTION_NAME !== undefined && config.fanoutQueueUrl === undefined
    ? [
        {
          source: 'env',
          name: 'FANOUT_QUEUE_URL',
          value: env.FANOUT_QUEUE_URL ?? '',
          expected:
            'the URL of the SQS FIFO fan-out queue: required on Lambda, so that two replacer runs of a region never overlap',
          group: undefined,
          fallback: 'none: no action this run',
          fatal: true,
        },
      ]
    : []

export const createReplacer = (deps: ReplacerDeps) => {
  // Lives as long as the Lambda container: each on-demand member's reason is logged when it changes.
  const reasons = new ReasonMemory()
  const runOne = async (config: GlobalConfig, work: Work): Promise<RegionSummary> => {
    const started = Date.now()
    const now = deps.now()
    try {
      const result = await runRegion({
        cloud: deps.cloudFor(work.region),
        config,
        now,
        log: deps.log,
        metrics: deps.metrics,
        reasons,
        ...(work.onlyGroups ? { onlyGroups: work.onlyGroups } : {}),
        ...(deps.requestRun
          ? {
              requestRun: (group: string, delay: number) =>
                deps.requestRun?.(work.region, group, delay) ?? Promise.resolve(),
            }
          : {}),
        // Only a queue worker can hand the rest of a large region to other invocations.
        ...(config.fanoutQueueUrl && !work.onlyGroups
          ? { splitAbove: FANOUT_GROUPS_PER_REGION_MESSAGE }
          : {}),
      })
      if (result.deferred && config.fanoutQueueUrl) {
        const bucket = Math.floor(now.getTime() / (config.scheduleMinutes * 60_000))
        await deps.enqueue(
          config.fanoutQueueUrl,
          result.deferred.map((groups, index) => ({
            groupId: work.region,
            deduplicationId: deduplicationId(work.region, `chunk${index}`, String(bucket)),
            body: JSON.stringify(regionWorkEvent(work.region, now, groups)),
          })),
        )
        return { region: work.region, deferredChunks: result.deferred.length }
      }
      return summarizeRegion(result)
    } catch (error) {
      deps.log.error('region run failed', { region: work.region, error: String(error) })
      return {
        region: work.region,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      }
    } finally {
      deps.metrics.emit({ [DIMENSION_REGION]: work.region }, [
        { name: Metric.RunDurationMs, unit: 'Milliseconds', value: Date.now() - started },
      ])
    }
  }

  return async (event: unknown): Promise<ReplacerSummary> => {
    const parsed = parseGlobalConfig(deps.env)
    const { config } = parsed
    const errors = [...parsed.errors, ...deploymentErrors(deps.env, config)]
    const fatal = errors.filter((e) => e.fatal)
    for (const error of errors)
      deps.log[error.fatal ? 'error' : 'warn']('invalid configuration value', { ...error })
    if (fatal.length > 0) {
      deps.log.error(
        'configuration prevents any action this run; fix the environment variables named above',
        {
          fatal: fatal.map((e) => e.name),
        },
      )
      return { ok: false, dryRun: config.dryRun, configErrors: errors, regions: [] }
    }

    const work: Work[] = []
    const ignored: { messageId: string | undefined; reason: string }[] = []
    let enqueued: string[] | undefined
    /** A run for one group (a launch event, a run request): through the queue when there is one. */
    const oneGroup = async (
      region: string,
      group: string,
      messageId: string | undefined,
      deduplication: string,
    ): Promise<void> => {
      if (!isRegionCovered(region, config)) {
        ignored.push({ messageId, reason: `region-not-enabled: ${region} is not in REGIONS` })
        return
      }
      if (config.fanoutQueueUrl) {
        // Through the queue (message group = region), so it never overlaps a worker on that region.
        await deps.enqueue(config.fanoutQueueUrl, [
          {
            groupId: region,
            deduplicationId: deduplication,
            body: JSON.stringify(regionWorkEvent(region, deps.now(), [group])),
          },
        ])
        enqueued = [...(enqueued ?? []), `${region}/${group}`]
      } else {
        work.push({ region, onlyGroups: [group], messageId })
      }
    }
    for (const { messageId, event: parsed } of parseInvocation(replacerEvents, event)) {
      switch (parsed.kind) {
        case 'scheduled': {
          const { regions, unmatched } = await selectRegions(config.regions, deps.regionDirectory)
          if (unmatched.length > 0) deps.log.warn('REGIONS patterns matched no enabled region', { unmatched })
          if (config.fanoutQueueUrl) {
            const now = deps.now()
            await deps.enqueue(
              config.fanoutQueueUrl,
              regions.map((region) => ({
                groupId: region,
                deduplicationId: `${region}-${Math.floor(now.getTime() / (config.scheduleMinutes * 60_000))}`,
                body: JSON.stringify(regionWorkEvent(region, now)),
              })),
            )
            enqueued = regions
          } else {
            for (const region of regions) work.push({ region, messageId })
          }
          break
        }
        case 'region-work':
          if (!isRegionCovered(parsed.detail.region, config)) {
            ignored.push({
              messageId,
              reason: `region-not-enabled: ${parsed.detail.region} is not in REGIONS`,
            })
            break
          }
          work.push({ region: parsed.detail.region, onlyGroups: parsed.detail.groups, messageId })
          break
        case 'instance-launch-successful': {
          const { region } = parsed.envelope
          const group = parsed.detail.groupName
          const id = parsed.envelope.id ?? parsed.detail.instanceId
          await oneGroup(region, group, messageId, deduplicationId(region, group, id))
          break
        }
        case 'group-run-request': {
          const { region } = parsed.envelope
          const group = parsed.detail.groupName
          // Every request is a run of its own: its id first, where truncating a long group name cannot cut it.
          const id = messageId ?? parsed.envelope.id ?? deps.now().toISOString()
          await oneGroup(region, group, messageId, deduplicationId(id, region, group))
          break
        }
        case 'unrecognized':
          ignored.push({
            messageId,
            reason: `unrecognized event ${parsed.envelope.source} / ${parsed.envelope.detailType}`,
          })
          break
        case 'malformed':
          ignored.push({ messageId, reason: `malformed event: ${parsed.problem}` })
          break
      }
    }
    for (const item of ignored) deps.log.warn('event ignored', item)

    // A failed region run is not handed back to SQS: in the FIFO queue a message waiting out its visibility
    // timeout (18 minutes) holds every later run of its region, health looks and deadlines included, while
    // the next scheduled run (a few minutes away) reconciles everything the failed one would have done.
    const regions = await Promise.all(work.map((w) => runOne(config, w)))
    return {
      ok: regions.every((r) => r.error === undefined),
      dryRun: config.dryRun,
      configErrors: errors,
      ...(enqueued ? { enqueued } : {}),
      ...(ignored.length > 0 ? { ignored } : {}),
      regions,
    }
  }
}
