/** Log and metrics recorders shared by the corpus tests: every structured line, as the handler wrote it. */
import type { Log, MetricsSink } from '../../../lambdas/core/log.ts'

export interface LogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error'
  readonly message: string
  readonly attributes: Readonly<Record<string, unknown>>
}

export interface MetricLine {
  readonly dimensions: Readonly<Record<string, string>>
  readonly name: string
  readonly value: number
}

export const recorders = () => {
  const lines: LogLine[] = []
  const metricLines: MetricLine[] = []
  const at =
    (level: LogLine['level']) =>
    (message: string, attributes: Record<string, unknown> = {}): void => {
      lines.push({ level, message, attributes: { ...attributes } })
    }
  const log: Log = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
  const metrics: MetricsSink = {
    emit: (dimensions, values) => {
      for (const { name, value } of values) metricLines.push({ dimensions: { ...dimensions }, name, value })
    },
  }
  return { log, metrics, lines, metricLines }
}
