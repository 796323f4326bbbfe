/**
 * One structured log line and a few metrics per event. Dimensions differ per event (Region always,
 * Group when the instance belongs to a managed group, Action per action taken), so each set is
 * emitted on its own. Names come from the shared metric-names module.
 */
import type { ConfigError } from '../core/config/config.ts'
import type { InterruptionAction } from '../core/interruption/decision.ts'
import type { Log, MetricsSink } from '../core/log.ts'
import { DIMENSION_ACTION, DIMENSION_GROUP, DIMENSION_REGION, Metric } from '../core/metric-names.ts'

export type EventOutcome = 'acted' | 'skipped' | 'dry-run' | 'ignored' | 'invalid' | 'failed'

export interface EventResult {
  /** The SQS message id when the event came through a queue. */
  readonly messageId: string | undefined
  readonly eventId: string | undefined
  readonly kind:
    | 'spot-interruption'
    | 'rebalance-recommendation'
    | 'interruption-deadline'
    | 'unrecognized'
    | 'malformed'
  readonly region: string | undefined
  readonly instanceId: string | undefined
  readonly group: string | undefined
  /** True when the instance belongs to (or was launched for) a managed group. */
  readonly managed: boolean
  readonly outcome: EventOutcome
  readonly reason: string
  readonly detail: string
  /** The actions that ran (or, in a dry run, would have run), in order. */
  readonly actions: readonly InterruptionAction[]
}

interface Telemetry {
  readonly log: Log
  readonly metrics: MetricsSink
}

const HANDLED_METRIC = {
  'spot-interruption': Metric.InterruptionsHandled,
  'rebalance-recommendation': Metric.RebalanceRecommendationsHandled,
  'interruption-deadline': Metric.InterruptionDeadlinesHandled,
} as const

export const reportEvent = ({ log, metrics }: Telemetry, result: EventResult, durationMs: number): void => {
  const region = { [DIMENSION_REGION]: result.region ?? 'unknown' }
  const fields = { ...result, durationMs }
  if (result.outcome === 'invalid') log.warn('interruption event rejected', fields)
  else if (result.outcome === 'failed') log.error('interruption event failed', fields)
  else log.info('interruption event', fields)

  const duration = {
    name: Metric.InterruptionHandlerDurationMs,
    unit: 'Milliseconds',
    value: durationMs,
  } as const
  const isSignal =
    result.kind === 'spot-interruption' ||
    result.kind === 'rebalance-recommendation' ||
    result.kind === 'interruption-deadline'
  if (!isSignal || !result.managed || result.group === undefined) {
    metrics.emit(region, [{ name: Metric.IgnoredEvents, unit: 'Count', value: 1 }, duration])
    return
  }
  const perGroup = { ...region, [DIMENSION_GROUP]: result.group }
  metrics.emit(perGroup, [{ name: HANDLED_METRIC[result.kind], unit: 'Count', value: 1 }, duration])
  if (result.outcome === 'acted' || result.outcome === 'failed' || result.outcome === 'skipped') {
    for (const action of result.actions) {
      metrics.emit({ ...perGroup, [DIMENSION_ACTION]: action.kind }, [
        { name: Metric.InterruptionActions, unit: 'Count', value: 1 },
      ])
    }
  }
}

export const reportConfigErrors = (
  { log, metrics }: Telemetry,
  region: string,
  errors: readonly ConfigError[],
): void => {
  for (const error of errors) {
    if (error.fatal) log.error('invalid configuration value; no action until it is fixed', { ...error })
    else log.warn('invalid configuration value; using the default', { ...error })
    const dimensions: Record<string, string> = { [DIMENSION_REGION]: region }
    if (error.group !== undefined) dimensions[DIMENSION_GROUP] = error.group
    metrics.emit(dimensions, [{ name: Metric.ConfigErrors, unit: 'Count', value: 1 }])
  }
}
