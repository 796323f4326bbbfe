/**
 * Delivers a corpus event to either Lambda, in a world with two regions (us-east-1 enabled, eu-west-1
 * not) and returns what the last delivery did: its result, its log lines and its cloud calls.
 */
import type { FakeCloud } from '../../fakes/fake-cloud.ts'
import type { EventEntry } from './event-corpus.ts'
import { interruptionHarness, replacerHarness } from './handlers.ts'
import type { LogLine } from './telemetry.ts'
import { buildWorld } from './worlds.ts'

export const ENABLED_REGION = 'us-east-1'
const ENV = { AWS_REGION: ENABLED_REGION, REGIONS: ENABLED_REGION }

interface LastDelivery<R> {
  readonly result: R
  readonly lines: readonly LogLine[]
  /** Every cloud call the last delivery made, in any region. */
  readonly calls: readonly { readonly method: string; readonly args: readonly unknown[] }[]
  readonly mutations: readonly { readonly method: string; readonly args: readonly unknown[] }[]
  readonly cloudsAsked: readonly string[]
  /** Mutations made by the deliveries before the last one. */
  readonly earlierMutations: number
}

const twoRegions = (): FakeCloud[] => [buildWorld(ENABLED_REGION).cloud, buildWorld('eu-west-1').cloud]

const lastOf = async <R>(
  entry: EventEntry,
  clouds: readonly FakeCloud[],
  harness: { lines: LogLine[]; cloudsAsked: string[] },
  deliver: (invocation: unknown) => Promise<R>,
): Promise<LastDelivery<R>> => {
  for (let i = 1; i < entry.deliveries; i++) await deliver(entry.invocation)
  const calls = clouds.map((c) => c.calls.length)
  const mutations = clouds.map((c) => c.mutations.length)
  const lines = harness.lines.length
  const asked = harness.cloudsAsked.length
  const result = await deliver(entry.invocation)
  return {
    result,
    lines: harness.lines.slice(lines),
    calls: clouds.flatMap((c, i) => c.calls.slice(calls[i])),
    mutations: clouds.flatMap((c, i) => c.mutations.slice(mutations[i])),
    cloudsAsked: harness.cloudsAsked.slice(asked),
    earlierMutations: mutations.reduce((sum, n) => sum + n, 0),
  }
}

export const deliverToReplacer = (entry: EventEntry) => {
  const clouds = twoRegions()
  const harness = replacerHarness(clouds, ENV)
  return lastOf(entry, clouds, harness, harness.run)
}

export const deliverToInterruption = (entry: EventEntry) => {
  const clouds = twoRegions()
  const harness = interruptionHarness(clouds, ENV)
  return lastOf(entry, clouds, harness, harness.handle)
}

/** The longest log line, as the JSON a structured logger would write. */
export const longestLine = (lines: readonly LogLine[]): number =>
  Math.max(0, ...lines.map((line) => JSON.stringify(line).length))
