/**
 * The one place Logger and Metrics come from. Handlers create them once per container; tests and the
 * simulator pass recorders implementing the same small interfaces (core/log.ts).
 */
import { Logger } from '@aws-lambda-powertools/logger'
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics'
import type { Log, MetricsSink, MetricUnit as UnitName } from './core/log.ts'
import { METRIC_NAMESPACE, METRIC_SERVICE } from './core/metric-names.ts'

export const createLogger = (serviceName: string): Logger =>
  new Logger({ serviceName, logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO' })

/** The engine's Log on top of Powertools: attributes become top-level keys of the JSON line. */
export const powertoolsLog = (logger: Logger): Log => ({
  debug: (message, attributes) => logger.debug(message, { ...attributes }),
  info: (message, attributes) => logger.info(message, { ...attributes }),
  warn: (message, attributes) => logger.warn(message, { ...attributes }),
  error: (message, attributes) => logger.error(message, { ...attributes }),
})

/** Every metric carries `service=spotswap` whichever Lambda emits it (see core/metric-names.ts). */
export const createMetrics = (_functionName?: string): Metrics =>
  new Metrics({ namespace: METRIC_NAMESPACE, serviceName: METRIC_SERVICE })

const UNITS: Record<UnitName, (typeof MetricUnit)[keyof typeof MetricUnit]> = {
  Count: MetricUnit.Count,
  Milliseconds: MetricUnit.Milliseconds,
  Percent: MetricUnit.Percent,
  None: MetricUnit.NoUnit,
}

/**
 * EMF through Powertools: one document per dimension set holding all its values, written at once
 * (publishing clears the stored metrics and dimensions for the next set).
 */
export const emfMetricsSink = (metrics: Metrics): MetricsSink => ({
  emit(dimensions, values) {
    if (values.length === 0) return
    metrics.addDimensions({ ...dimensions })
    for (const value of values) metrics.addMetric(value.name, UNITS[value.unit], value.value)
    metrics.publishStoredMetrics()
  },
})

export type { Logger, Metrics }
