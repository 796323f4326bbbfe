/**
 * One structured log line and a few EMF metrics per event. Metrics are emitted one at a time
 * (singleMetric) because their dimensions differ per event: Region always, Group when one is known,
 * Action for the actions taken. Names come from the shared metric-names module.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics'
import type { ConfigError } from '../core/config.ts'
import type { InterruptionAction } from '../core/interruption.ts'
import {
  DIMENSION_ACTION,
  DIMENSION_GROUP,
  DIMENSION_REGION,
  Metric,
  type MetricName,
} from '../core/metric-names.ts'
import type { Logger, Metrics } from '../telemetry.ts'

export type EventOutcome = 'acted' | 'skipped' | 'dry-run' | 'ignored' | 'invalid' | 'failed'

export interface EventResult {
  /** The SQS message id when the event came through a queue. */
  readonly messageId: string | undefined
  readonly eventId: string | undefined
  readonly kind: 'spot-interruption' | 'rebalance-recommendation' | 'unrecognized' | 'malformed'
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
  readonly logger: Logger
  readonly metrics: Metrics
}

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit]

const emit = (
  metrics: Metrics,
  name: MetricName,
  unit: Unit,
  value: number,
  dimensions: Record<string, string>,
) => {
  const single = metrics.singleMetric()
  single.addDimensions(dimensions)
  single.addMetric(name, unit, value)
}

const HANDLED_METRIC = {
  'spot-interruption': Metric.InterruptionsHandled,
  'rebalance-recommendation': Metric.RebalanceRecommendationsHandled,
} as const

export const reportEvent = (
  { logger, metrics }: Telemetry,
  result: EventResult,
  durationMs: number,
): void => {
  const region = { [DIMENSION_REGION]: result.region ?? 'unknown' }
  const perGroup =
    result.group !== undefined && result.managed ? { ...region, [DIMENSION_GROUP]: result.group } : region
  const fields = { ...result, durationMs }
  if (result.outcome === 'invalid') logger.warn('interruption event rejected', fields)
  else if (result.outcome === 'failed') logger.error('interruption event failed', fields)
  else logger.info('interruption event', fields)

  if ((result.kind === 'spot-interruption' || result.kind === 'rebalance-recommendation') && result.managed) {
    emit(metrics, HANDLED_METRIC[result.kind], MetricUnit.Count, 1, perGroup)
    if (result.outcome === 'acted' || result.outcome === 'failed') {
      for (const action of result.actions) {
        emit(metrics, Metric.InterruptionActions, MetricUnit.Count, 1, {
          ...perGroup,
          [DIMENSION_ACTION]: action.kind,
        })
      }
    }
  } else {
    emit(metrics, Metric.IgnoredEvents, MetricUnit.Count, 1, region)
  }
  emit(metrics, Metric.InterruptionHandlerDurationMs, MetricUnit.Milliseconds, durationMs, perGroup)
}

export const reportConfigErrors = (
  { logger, metrics }: Telemetry,
  region: string,
  errors: readonly ConfigError[],
): void => {
  for (const error of errors) {
    logger.warn('invalid configuration value; using the default', { ...error })
    const dimensions: Record<string, string> = { [DIMENSION_REGION]: region }
    if (error.group !== undefined) dimensions[DIMENSION_GROUP] = error.group
    emit(metrics, Metric.ConfigErrors, MetricUnit.Count, 1, dimensions)
  }
}
