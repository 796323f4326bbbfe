/**
 * Hand-written chaos cases: one region, the groups given, and only the faults and races a test names.
 * Times are minutes after the start, so a case reads as a story.
 */
import type { ChaosCase, CrashPoint, ErrorStorm, OwnerAction, QueuedRuns } from '../../tools/chaos/case.ts'
import { CHAOS_START } from '../../tools/chaos/draw.ts'
import type { Violation } from '../../tools/sim/invariant-ledger.ts'

export const REGION = 'us-east-1'
const START_MS = Date.parse(CHAOS_START)

export const minute = (n: number): number => START_MS + n * 60_000
export const isoMinute = (n: number): string => new Date(minute(n)).toISOString()

export type RawGroup = Record<string, unknown> & { name: string }

export const group = (name: string, overrides: Record<string, unknown> = {}): RawGroup => ({
  name,
  instanceType: 'm5.large',
  min: 0,
  max: 6,
  desired: 3,
  tags: { 'spot-enabled': 'true' },
  healthCheckGracePeriod: 0,
  ...overrides,
})

export interface CaseSpec {
  readonly groups: readonly RawGroup[]
  readonly durationHours?: number
  readonly env?: Record<string, string>
  readonly interruptions?: readonly {
    readonly minute: number
    readonly group: string
    readonly count: number
  }[]
  readonly crashes?: readonly CrashPoint[]
  readonly errorRate?: number
  readonly storms?: readonly ErrorStorm[]
  readonly queuedRuns?: readonly (Omit<QueuedRuns, 'atMs' | 'region'> & { readonly minute: number })[]
  readonly owner?: readonly (Omit<OwnerAction, 'atMs' | 'region'> & { readonly minute: number })[]
}

export const chaosCase = (spec: CaseSpec, seed = 1): ChaosCase => ({
  seed,
  scenario: {
    name: 'chaos-test',
    seed,
    start: CHAOS_START,
    durationHours: spec.durationHours ?? 1,
    scheduleMinutes: 5,
    env: spec.env ?? {},
    regions: { [REGION]: { zones: ['us-east-1a', 'us-east-1b', 'us-east-1d'], groups: spec.groups } },
    faults: { apiErrorRate: 0, throttle: true, crashRate: 0 },
    interruptions: (spec.interruptions ?? []).map((i) => ({
      at: isoMinute(i.minute),
      group: i.group,
      count: i.count,
    })),
  },
  traces: {},
  faults: {
    errorRate: spec.errorRate ?? 0,
    crashRate: 0,
    crashes: spec.crashes ?? [],
    storms: spec.storms ?? [],
  },
  queuedRuns: (spec.queuedRuns ?? []).map(({ minute: at, ...run }) => ({
    ...run,
    atMs: minute(at),
    region: REGION,
  })),
  events: { duplicateRate: 0, delayRate: 0, maxDelaySeconds: 30 },
  owner: (spec.owner ?? []).map(({ minute: at, ...action }) => ({
    ...action,
    atMs: minute(at),
    region: REGION,
  })),
})

/** The invariants a run broke, one entry per kind. */
export const kinds = (violations: readonly Violation[]): string[] =>
  [...new Set(violations.map((v) => v.invariant))].sort()
