/**
 * The logging and metrics surfaces the engine needs. Powertools' Logger satisfies Log as it is; the
 * simulator and tests pass recorders.
 */
export interface Log {
  debug(message: string, attributes?: Record<string, unknown>): void
  info(message: string, attributes?: Record<string, unknown>): void
  warn(message: string, attributes?: Record<string, unknown>): void
  error(message: string, attributes?: Record<string, unknown>): void
}

export type MetricUnit = 'Count' | 'Milliseconds' | 'Percent' | 'None'

export interface MetricValue {
  readonly name: string
  readonly unit: MetricUnit
  readonly value: number
}

export interface MetricsSink {
  /** One set of values sharing the same dimensions (e.g. Region + Group). */
  emit(dimensions: Readonly<Record<string, string>>, values: readonly MetricValue[]): void
}

export const silentLog: Log = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} }
export const discardMetrics: MetricsSink = { emit: () => {} }
