/**
 * The record of a chaos sweep (`spotswap chaos --record FILE`): which seeds ran on which commit and
 * machine, and what came out. The benchmark's RESULTS.md quotes the committed one
 * (bench/chaos-sweep.json); `--jobs` merges the records of its child processes into one.
 */

export interface SweepRecord {
  readonly commit: string
  readonly date: string
  readonly machine: string
  readonly firstSeed: number
  readonly runs: number
  readonly passed: number
  readonly failed: number
  /** Seeds of the failing cases, ascending. */
  readonly failedSeeds: readonly number[]
  /** Invariant violations over all cases (a failing case may have several, or throw with none). */
  readonly violations: number
  readonly durationSeconds: number
}

/** One record for contiguous slices of a sweep run side by side; undefined when they are not contiguous. */
export const mergeRecords = (parts: readonly SweepRecord[]): SweepRecord | undefined => {
  const sorted = [...parts].sort((a, b) => a.firstSeed - b.firstSeed)
  const first = sorted[0]
  if (first === undefined) return undefined
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1] as SweepRecord
    if ((sorted[i] as SweepRecord).firstSeed !== previous.firstSeed + previous.runs) return undefined
  }
  const sum = (pick: (r: SweepRecord) => number): number => sorted.reduce((total, r) => total + pick(r), 0)
  return {
    commit: first.commit,
    date: first.date,
    machine: first.machine,
    firstSeed: first.firstSeed,
    runs: sum((r) => r.runs),
    passed: sum((r) => r.passed),
    failed: sum((r) => r.failed),
    failedSeeds: sorted.flatMap((r) => r.failedSeeds),
    violations: sum((r) => r.violations),
    durationSeconds: Math.max(...sorted.map((r) => r.durationSeconds)),
  }
}

const FIELDS: Readonly<Record<keyof SweepRecord, 'string' | 'number' | 'seeds'>> = {
  commit: 'string',
  date: 'string',
  machine: 'string',
  firstSeed: 'number',
  runs: 'number',
  passed: 'number',
  failed: 'number',
  failedSeeds: 'seeds',
  violations: 'number',
  durationSeconds: 'number',
}

/** The record in `raw` (parsed JSON), or the first field that is missing or of the wrong kind. */
export const readSweepRecord = (raw: unknown): SweepRecord | { readonly error: string } => {
  if (typeof raw !== 'object' || raw === null) return { error: 'not a JSON object' }
  const record = raw as Record<string, unknown>
  for (const [field, kind] of Object.entries(FIELDS)) {
    const value = record[field]
    const ok =
      kind === 'seeds'
        ? Array.isArray(value) && value.every((seed) => Number.isInteger(seed))
        : kind === 'number'
          ? typeof value === 'number' && Number.isFinite(value)
          : typeof value === 'string'
    if (!ok) return { error: `${field}: expected ${kind === 'seeds' ? 'a list of seeds' : `a ${kind}`}` }
  }
  const typed = raw as SweepRecord
  if (typed.passed + typed.failed !== typed.runs) return { error: 'passed + failed must equal runs' }
  return typed
}

/** The line RESULTS.md gives the latest full sweep. */
export const sweepLine = (record: SweepRecord): string => {
  const last = record.firstSeed + record.runs - 1
  const count = (n: number) => n.toLocaleString('en-US')
  const failures =
    record.failed === 0
      ? 'violations = 0'
      : `${count(record.violations)} violation(s); failing seeds ${record.failedSeeds.slice(0, 20).join(', ')}${record.failedSeeds.length > 20 ? ', …' : ''}`
  return `Latest full chaos sweep: ${count(record.runs)} runs, seeds ${count(record.firstSeed)}–${count(last)}: ${count(record.passed)} passed, ${count(record.failed)} failed, ${failures} (commit ${record.commit}, ${record.date.slice(0, 10)}, ${record.machine}, ${Math.round(record.durationSeconds / 60)} min).`
}
