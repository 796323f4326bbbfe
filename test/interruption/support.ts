/**
 * Test support for the interruption handler: recorders for the Log and MetricsSink the handler writes
 * to (the same interfaces Powertools is adapted to in production), and a converted group seeded in
 * the fake cloud.
 */
import { TAG_LAUNCHED_BY, TAG_LAUNCHED_FOR_GROUP } from '../../lambdas/core/constants.ts'
import type { Log, MetricsSink } from '../../lambdas/core/log.ts'
import type { LifecycleHook } from '../../lambdas/core/port.ts'
import type { InterruptionDeps } from '../../lambdas/interruption/deps.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'

export interface MetricRecord {
  readonly name: string
  readonly unit: string
  readonly value: number
  readonly dimensions: Readonly<Record<string, string>>
}

export interface LogRecord {
  readonly level: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR'
  readonly message: string
  readonly [attribute: string]: unknown
}

export const recordTelemetry = () => {
  const logLines: LogRecord[] = []
  const metricRecords: MetricRecord[] = []
  const at =
    (level: LogRecord['level']) =>
    (message: string, attributes: Record<string, unknown> = {}) => {
      logLines.push({ ...attributes, level, message })
    }
  const log: Log = { debug: at('DEBUG'), info: at('INFO'), warn: at('WARN'), error: at('ERROR') }
  const metrics: MetricsSink = {
    emit: (dimensions, values) => {
      for (const value of values) metricRecords.push({ ...value, dimensions: { ...dimensions } })
    },
  }
  return {
    log,
    metrics,
    logs: (): readonly LogRecord[] => logLines,
    emitted: (): readonly MetricRecord[] => metricRecords,
  }
}

export const NOW = new Date('2026-03-02T14:05:22Z')

export type TestTelemetry = ReturnType<typeof recordTelemetry>

export const testDeps = (
  clouds: readonly FakeCloud[],
  env: Readonly<Record<string, string>> = {},
): InterruptionDeps & { readonly cloudsAsked: string[]; readonly telemetry: TestTelemetry } => {
  const cloudsAsked: string[] = []
  const telemetry = recordTelemetry()
  return {
    env: { AWS_REGION: 'us-east-1', ...env },
    cloudFor: (region) => {
      cloudsAsked.push(region)
      const cloud = clouds.find((candidate) => candidate.region === region)
      if (cloud === undefined) throw new Error(`test: no fake cloud for ${region}`)
      return cloud
    },
    log: telemetry.log,
    metrics: telemetry.metrics,
    now: () => NOW,
    cloudsAsked,
    telemetry,
  }
}

/**
 * A group the replacer has converted: `size` spot members launched for it, tagged as spotswap tags
 * them, desired = size. Returns the group and its members' ids.
 */
export const seedConvertedGroup = (
  cloud: FakeCloud,
  options: { name?: string; tags?: Record<string, string>; hooks?: LifecycleHook[]; size?: number } = {},
) => {
  const name = options.name ?? 'web'
  const group = cloud.addGroup(name, {
    tags: options.tags ?? { 'spot-enabled': 'true' },
    hooks: options.hooks ?? [],
    minSize: 1,
    maxSize: 6,
  })
  const members = Array.from({ length: options.size ?? 3 }, (_, index) =>
    cloud.addInstance({
      group: name,
      lifecycle: 'spot',
      type: index % 2 === 0 ? 'm5a.large' : 'm6i.large',
      zone: `${cloud.region}${'abc'[index % 3]}`,
      tags: { [TAG_LAUNCHED_BY]: 'true', [TAG_LAUNCHED_FOR_GROUP]: name },
    }),
  )
  return { group, ids: members.map((member) => member.id) }
}

export const TERMINATING_HOOK: LifecycleHook = {
  name: 'drain',
  transition: 'autoscaling:EC2_INSTANCE_TERMINATING',
}
