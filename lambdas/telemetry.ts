/**
 * The one place Logger and Metrics come from. Handlers create them once per container; tests pass
 * their own (or these, with output captured).
 */
import { Logger } from '@aws-lambda-powertools/logger'
import { Metrics } from '@aws-lambda-powertools/metrics'
import { METRIC_NAMESPACE } from './core/metric-names.ts'

export const createLogger = (serviceName: string): Logger =>
  new Logger({ serviceName, logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO' })

export const createMetrics = (serviceName: string): Metrics =>
  new Metrics({ namespace: METRIC_NAMESPACE, serviceName })

export type { Logger, Metrics }
