/**
 * Test support for the interruption handler: real Powertools Logger and Metrics with their output
 * captured and decoded (log lines as objects, EMF as metric records), and a converted group seeded
 * in the fake cloud.
 */
import { vi } from 'vitest'
import { TAG_LAUNCHED_BY, TAG_LAUNCHED_FOR_GROUP } from '../../lambdas/core/constants.ts'
import type { LifecycleHook } from '../../lambdas/core/port.ts'
import type { InterruptionDeps } from '../../lambdas/interruption/deps.ts'
import { createLogger, createMetrics, emfMetricsSink, powertoolsLog } from '../../lambdas/telemetry.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'

export interface MetricRecord {
  readonly name: string
  readonly unit: string
  readonly value: number
  readonly dimensions: Readonly<Record<string, string>>
}

interface Emf {
  readonly _aws: {
    CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[]
  }
  readonly [key: string]: unknown
}

/** Captures what the Powertools Logger and Metrics write (they bypass `console`, writing to the streams). */
export const captureTelemetry = () => {
  const lines: string[] = []
  const capture = (chunk: unknown) => {
    lines.push(
      ...String(chunk)
        .split('\n')
        .filter((line) => line.trim().length > 0),
    )
    return true
  }
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture)
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture)
  const parsed = () =>
    lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>]
      } catch {
        return []
      }
    })
  return {
    logs: () => parsed().filter((entry) => !('_aws' in entry)),
    metrics: (): MetricRecord[] =>
      parsed()
        .filter((entry): entry is Emf => '_aws' in entry)
        .flatMap((emf) =>
          emf._aws.CloudWatchMetrics.flatMap((directive) =>
            directive.Metrics.map((metric) => ({
              name: metric.Name,
              unit: metric.Unit,
              value: Number(emf[metric.Name]),
              dimensions: Object.fromEntries(
                (directive.Dimensions[0] ?? [])
                  .filter((d) => d !== 'service')
                  .map((d) => [d, String(emf[d])]),
              ),
            })),
          ),
        ),
    restore: () => {
      stdout.mockRestore()
      stderr.mockRestore()
    },
  }
}

export const NOW = new Date('2026-03-02T14:05:22Z')

export const testDeps = (
  clouds: readonly FakeCloud[],
  env: Readonly<Record<string, string>> = {},
): InterruptionDeps & { readonly cloudsAsked: string[] } => {
  const cloudsAsked: string[] = []
  return {
    env: { AWS_REGION: 'us-east-1', ...env },
    cloudFor: (region) => {
      cloudsAsked.push(region)
      const cloud = clouds.find((candidate) => candidate.region === region)
      if (cloud === undefined) throw new Error(`test: no fake cloud for ${region}`)
      return cloud
    },
    log: powertoolsLog(createLogger('spotswap-interruption-test')),
    metrics: emfMetricsSink(createMetrics('spotswap-interruption-test')),
    now: () => NOW,
    cloudsAsked,
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
