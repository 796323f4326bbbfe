/**
 * One unit of an invocation's work: a region, or some of its groups. Runs it (run-region.ts), hands the
 * rest of a region too large for one invocation to the fan-out queue, and times the run.
 */
import type { GlobalConfig } from '../core/config/config.ts'
import { FANOUT_GROUPS_PER_REGION_MESSAGE } from '../core/constants.ts'
import { DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import type { KillSwitchMode } from '../core/region/kill-switch.ts'
import { REGION_WORK_LANE, type RegionLane } from '../core/region/lanes.ts'
import type { MessageLease } from '../core/region/lease.ts'
import type { RunDeadline } from '../core/region/time-budget.ts'
import type { ReplacerDeps } from './deps.ts'
import { chunkMessages } from './lane-messages.ts'
import type { ReasonMemory } from './reasons.ts'
import { runRegion } from './run-region.ts'
import { type RegionSummary, summarizeRegion } from './summary.ts'

export interface Work {
  readonly region: string
  readonly onlyGroups?: readonly string[] | undefined
  /** A fan-out message's lane: only its groups are run (core/region/lanes.ts). */
  readonly lane?: RegionLane | undefined
  readonly messageId: string | undefined
  /** A run request asking for `onlyGroups` to revert to on-demand (replacer/revert-request.ts). */
  readonly revert?: boolean
  /** Another run of a run that failed before it acted: it asks for none (core/region/look-again.ts). */
  readonly retry?: boolean
  /** The run's lease on its fan-out message: it writes only while it holds it (core/region/lease.ts). */
  readonly lease?: MessageLease
}

export const runWork = async (
  deps: ReplacerDeps,
  reasons: ReasonMemory,
  config: GlobalConfig,
  work: Work,
  killSwitch: KillSwitchMode = 'off',
  deadline?: RunDeadline,
): Promise<RegionSummary> => {
  const started = Date.now()
  const now = deps.now()
  // A region with nothing managed and nothing wrong is not timed: its metric would be billed for nothing.
  let idle = false
  try {
    const result = await runRegion({
      cloud: deps.cloudFor(work.region),
      config,
      now,
      log: deps.log,
      metrics: deps.metrics,
      reasons,
      killSwitch,
      ...(deadline ? { deadline } : {}),
      ...(work.onlyGroups ? { onlyGroups: work.onlyGroups } : {}),
      ...(work.lane ? { lane: work.lane } : {}),
      ...(work.revert && work.onlyGroups ? { revert: work.onlyGroups } : {}),
      ...(work.retry ? { retry: true } : {}),
      ...(deps.requestRetry
        ? {
            requestRetry: (delay: number) =>
              deps.requestRetry?.(
                work.region,
                { lane: work.lane?.index ?? REGION_WORK_LANE, groups: work.onlyGroups },
                delay,
              ) ?? Promise.resolve(),
          }
        : {}),
      ...(deps.requestRun
        ? {
            requestRun: (group: string, delay: number) =>
              deps.requestRun?.(work.region, group, delay) ?? Promise.resolve(),
          }
        : {}),
      // Only a queue worker can hand the rest of a large region to other invocations.
      ...(config.fanoutQueueUrl && !work.onlyGroups ? { splitAbove: FANOUT_GROUPS_PER_REGION_MESSAGE } : {}),
    })
    idle =
      result.groups.length === 0 &&
      result.strays.length === 0 &&
      result.configErrors.length === 0 &&
      result.deferred === undefined
    if (result.deferred && config.fanoutQueueUrl) {
      const bucket = Math.floor(now.getTime() / (config.scheduleMinutes * 60_000))
      const lane = work.lane?.index ?? REGION_WORK_LANE
      await deps.enqueue(
        config.fanoutQueueUrl,
        chunkMessages(work.region, lane, result.deferred, now, bucket),
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
    if (!idle)
      deps.metrics.emit({ [DIMENSION_REGION]: work.region }, [
        { name: Metric.RunDurationMs, unit: 'Milliseconds', value: Date.now() - started },
      ])
  }
}
