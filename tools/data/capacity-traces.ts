import { readFixture } from './fixtures.ts'

/** How many spot instances of one pool were alive (preemption/) or obtainable (availability/) at each tick. */
export interface CapacityTrace {
  readonly gapSeconds: number
  readonly instanceType: string
  readonly zone: string
  /** One count per tick, `gapSeconds` apart; 0 means the pool had no capacity at that tick. */
  readonly data: number[]
}

interface EncodedTrace {
  readonly gapSeconds: number
  readonly instanceType: string
  readonly zone: string
  readonly length: number
  /** Run-length encoded ticks: [count, repeat, count, repeat, ...]. */
  readonly runs: readonly number[]
}

const traces = readFixture('capacity-traces.json') as Readonly<Record<string, EncodedTrace>>

const decodeRuns = (runs: readonly number[]): number[] => {
  const data: number[] = []
  for (let i = 0; i + 1 < runs.length; i += 2) {
    const value = runs[i] as number
    const repeat = runs[i + 1] as number
    for (let n = 0; n < repeat; n++) data.push(value)
  }
  return data
}

/** Trace names are paths under skypilot-org/spot-traces without `.json`, e.g. `preemption/1-node/aws-04-19-2023/us-east-1b_intel_64`. */
export const embeddedTraceNames = (): string[] => Object.keys(traces).sort()

/** A decoded trace (a fresh array per call), or undefined for an unknown name. A trailing `.json` is accepted. */
export const embeddedTrace = (name: string): CapacityTrace | undefined => {
  const key = name.endsWith('.json') ? name.slice(0, -'.json'.length) : name
  // hasOwn: names such as `constructor` must not reach Object.prototype.
  const trace = Object.hasOwn(traces, key) ? traces[key] : undefined
  if (!trace) return undefined
  return {
    gapSeconds: trace.gapSeconds,
    instanceType: trace.instanceType,
    zone: trace.zone,
    data: decodeRuns(trace.runs),
  }
}
