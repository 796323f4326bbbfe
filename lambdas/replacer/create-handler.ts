/**
 * The replacer's composition: turns one invocation (schedule tick, fan-out message, run request, launch
 * event) into region runs and a JSON summary. No SDK here: the cloud comes in through deps.
 */
import type { ConfigError, GlobalConfig } from '../core/config/config.ts'
import { parseGlobalConfig } from '../core/config/global-config.ts'
import { isRegionCovered } from '../core/config/managed.ts'
import { REGION_LANES } from '../core/constants.ts'
import { parseInvocation } from '../core/events/invocation.ts'
import { DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import { REGION_WORK_LANE } from '../core/region/lanes.ts'
import { MessageLease } from '../core/region/lease.ts'
import { readKillSwitch } from '../kill-switch.ts'
import { invocationDeadline, readDeliveries, receiptHandleOf, regionRunVerdict } from './delivery.ts'
import type { ReplacerDeps } from './deps.ts'
import { replacerEvents } from './event-registry.ts'
import { deduplicationId, groupMessage, laneMessages, retryMessage } from './lane-messages.ts'
import { ReasonMemory } from './reasons.ts'
import { runWork, type Work } from './region-work.ts'
import { selectRegions } from './select-regions.ts'
import type { ReplacerSummary } from './summary.ts'

export type ReplacerHandler = (event: unknown, context?: unknown) => Promise<ReplacerSummary>

/**
 * Deployed (on Lambda), every replacer run must go through its lane's message group of the FIFO fan-out
 * queue: the swap relies on no two runs of a group overlapping (core/swap/recover.ts). The
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

export const createHandler = (deps: ReplacerDeps): ReplacerHandler => {
  // Lives as long as the Lambda container: each on-demand member's reason is logged when it changes.
  const reasons = new ReasonMemory()

  return async (event, context) => {
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
    const deliveryCheck = {
      deliveries: readDeliveries(event),
      onLambda: deps.env.AWS_LAMBDA_FUNCTION_NAME !== undefined,
      now: deps.now(),
      context,
    }
    /**
     * The run's lease on its fan-out message (core/region/lease.ts), on Lambda: from the receipt's bound
     * the delivery check proved, renewed through ChangeMessageVisibility with the record's receipt handle.
     */
    const messageLease = (
      region: string,
      receiptBoundMs: number | undefined,
      messageId: string | undefined,
    ): MessageLease | undefined => {
      const receiptHandle = receiptHandleOf(deliveryCheck, messageId)
      const queueUrl = config.fanoutQueueUrl
      const renew = deps.changeVisibility
      if (!deliveryCheck.onLambda || receiptBoundMs === undefined) return undefined
      if (receiptHandle === undefined || queueUrl === undefined || renew === undefined) return undefined
      return new MessageLease(receiptBoundMs, {
        renew: (seconds) => renew(queueUrl, receiptHandle, seconds),
        nowMs: () => deps.now().getTime(),
        onLost: (detail) => {
          deps.log.warn('fan-out message lease not renewed', { region, messageId, detail })
          deps.metrics.emit({ [DIMENSION_REGION]: region }, [
            { name: Metric.FanoutLeasesLost, unit: 'Count', value: 1 },
          ])
        },
      })
    }
    /** A run for one group (a launch event, a run request): through the queue when there is one. */
    const oneGroup = async (
      region: string,
      group: string,
      messageId: string | undefined,
      deduplication: string,
      revert = false,
    ): Promise<void> => {
      if (!isRegionCovered(region, config)) {
        ignored.push({ messageId, reason: `region-not-enabled: ${region} is not in REGIONS` })
        return
      }
      if (config.fanoutQueueUrl) {
        // Through the queue (message group = the group's lane), so it never overlaps a run of that lane.
        await deps.enqueue(config.fanoutQueueUrl, [
          groupMessage(region, group, deps.now(), deduplication, revert),
        ])
        enqueued = [...(enqueued ?? []), `${region}/${group}`]
      } else {
        work.push({ region, onlyGroups: [group], messageId, revert })
      }
    }
    for (const { messageId, event: parsed } of parseInvocation(replacerEvents, event)) {
      switch (parsed.kind) {
        case 'scheduled': {
          const { regions, unmatched } = await selectRegions(config.regions, deps.regionDirectory)
          if (unmatched.length > 0) deps.log.warn('REGIONS patterns matched no enabled region', { unmatched })
          if (config.fanoutQueueUrl) {
            const now = deps.now()
            const bucket = Math.floor(now.getTime() / (config.scheduleMinutes * 60_000))
            await deps.enqueue(
              config.fanoutQueueUrl,
              regions.flatMap((region) => laneMessages(region, now, bucket)),
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
          {
            // A message sent before lanes is lane 0's: it came through the region's message group.
            const lane = { index: parsed.detail.lane ?? REGION_WORK_LANE, count: REGION_LANES }
            // Started only if Lambda ends it before its message can come back (core/region/delivery-window.ts).
            const verdict = regionRunVerdict(deliveryCheck, messageId, {
              region: parsed.detail.region,
              index: lane.index,
            })
            if (!verdict.start) {
              ignored.push({ messageId, reason: `${verdict.reason}: ${verdict.detail}` })
              deps.metrics.emit({ [DIMENSION_REGION]: parsed.detail.region }, [
                { name: Metric.RegionRunsNotStarted, unit: 'Count', value: 1 },
              ])
              break
            }
            const { groups, revert, retry } = parsed.detail
            const lease = messageLease(parsed.detail.region, verdict.heldUntilMs, messageId)
            work.push({
              region: parsed.detail.region,
              onlyGroups: groups,
              lane,
              messageId,
              revert: revert === true,
              ...(retry ? { retry: true } : {}),
              ...(lease ? { lease } : {}),
            })
          }
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
          const revert = parsed.detail.revert === true
          await oneGroup(region, group, messageId, deduplicationId(id, region, group), revert)
          break
        }
        case 'retry-request': {
          const { region } = parsed.envelope
          const { lane, groups } = parsed.detail
          if (!isRegionCovered(region, config)) {
            ignored.push({ messageId, reason: `region-not-enabled: ${region} is not in REGIONS` })
            break
          }
          const id = messageId ?? parsed.envelope.id ?? deps.now().toISOString()
          if (config.fanoutQueueUrl) {
            // Through the lane's message group, so it never overlaps another run of the lane.
            await deps.enqueue(config.fanoutQueueUrl, [
              retryMessage(region, lane, groups, deps.now(), deduplicationId(id, region, `lane${lane}`)),
            ])
            enqueued = [...(enqueued ?? []), `${region}/lane-${lane}`]
          } else {
            work.push({ region, onlyGroups: groups, messageId, retry: true })
          }
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
    // timeout (90 s) holds every later run of its region, health looks and deadlines included, while
    // the next scheduled run reconciles everything the failed one would have done.
    // Each run first shortens its message's visibility to its lease: a crash from here on holds its lane
    // one lease, not the queue's visibility timeout.
    await Promise.all(work.map((w) => w.lease?.take()))
    // The kill switch: read once per invocation that runs something, so it takes effect within one run.
    const killSwitch =
      work.length > 0 ? await readKillSwitch(deps.killSwitch, deps.log, deps.metrics) : undefined
    const deadline = invocationDeadline(context, () => deps.now().getTime())
    const regions = await Promise.all(
      work.map((w) =>
        runWork(
          deps,
          reasons,
          config,
          w,
          killSwitch?.mode,
          w.lease && deadline ? { ...deadline, lease: w.lease } : deadline,
        ),
      ),
    )
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
