/**
 * The event corpus through the interruption handler: every malformed or unexpected invocation gets one
 * structured log line saying why it was not acted on, never throws, and changes nothing. Events that
 * cannot concern spotswap (malformed, unrecognized, other regions) make no AWS call at all.
 */
import { describe, expect, it } from 'vitest'
import type { InterruptionSummary } from '../../lambdas/interruption/create-handler.ts'
import { deliverToInterruption, longestLine } from './support/deliver.ts'
import { type EventEntry, loadEventCorpus } from './support/event-corpus.ts'

const MAX_LOG_LINE = 4096
const WITHOUT_AWS = new Set(['invalid', 'ignored'])

const checkInterruption = async (entry: EventEntry) => {
  const { result, lines, calls, mutations, cloudsAsked, earlierMutations } =
    await deliverToInterruption(entry)
  const expectations = entry.expect.interruption
  expect((result as InterruptionSummary).results).toEqual(
    expectations.map((e) =>
      expect.objectContaining({
        outcome: e.outcome,
        reason: e.reason,
        actions: [],
        ...(e.detail === undefined ? {} : { detail: expect.stringContaining(e.detail) }),
      }),
    ),
  )
  const eventLines = lines.filter((l) => /^interruption event/.test(l.message))
  expect(eventLines).toEqual(
    expectations.map((e) => ({
      level: e.outcome === 'invalid' ? 'warn' : 'info',
      message: e.outcome === 'invalid' ? 'interruption event rejected' : 'interruption event',
      attributes: expect.objectContaining({ outcome: e.outcome, reason: e.reason }),
    })),
  )
  expect(mutations).toEqual([])
  if (expectations.some((e) => e.firstActs)) expect(earlierMutations).toBeGreaterThan(0)
  if (expectations.every((e) => WITHOUT_AWS.has(e.outcome))) {
    expect(calls).toEqual([])
    expect(cloudsAsked).toEqual([])
  }
}

const corpus = loadEventCorpus()
const rows = (entries: readonly EventEntry[]): [string, EventEntry][] => entries.map((e) => [e.name, e])

describe('event corpus through the interruption handler', () => {
  describe('a logged no-op that never throws and changes nothing', () => {
    it.each(rows(corpus.filter((e) => !e.knownBug.interruption)))('%s', (_, entry) =>
      checkInterruption(entry),
    )
    // Known product bugs (see the entry's knownBug): these pass while the bug exists.
    it.fails.each(rows(corpus.filter((e) => e.knownBug.interruption)))('%s', (_, entry) =>
      checkInterruption(entry),
    )
  })

  const bounded = async (entry: EventEntry) => {
    const { lines } = await deliverToInterruption(entry)
    expect(longestLine(lines)).toBeLessThan(MAX_LOG_LINE)
  }
  describe(`log lines stay under ${MAX_LOG_LINE} characters whatever the input size`, () => {
    it.each(rows(corpus.filter((e) => !e.logBoundBug)))('%s', (_, entry) => bounded(entry))
    it.fails.each(rows(corpus.filter((e) => e.logBoundBug)))('%s', (_, entry) => bounded(entry))
  })
})
