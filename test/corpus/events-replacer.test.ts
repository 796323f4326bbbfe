/**
 * The event corpus through the replacer: every malformed or unexpected invocation is a logged no-op
 * that never throws and changes nothing. Ignored events make no AWS call at all; valid events that
 * concern nothing spotswap should change (an unmanaged group, a duplicate) run a read-only reconcile.
 */
import { describe, expect, it } from 'vitest'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import { deliverToReplacer, longestLine } from './support/deliver.ts'
import { type EventEntry, loadEventCorpus } from './support/event-corpus.ts'

/** Far above any honest line, far below CloudWatch Logs' 256 KB event limit. */
const MAX_LOG_LINE = 4096

const checkReplacer = async (entry: EventEntry) => {
  const { result, lines, calls, mutations, cloudsAsked, earlierMutations } = await deliverToReplacer(entry)
  const summary = result as ReplacerSummary
  const ignored = entry.expect.replacer.flatMap((e) => (e.result === 'ignored' ? [e] : []))
  const runs = entry.expect.replacer.flatMap((e) => (e.result === 'no-op-run' ? [e] : []))

  expect(summary.ok).toBe(true)
  expect(summary.ignored ?? []).toEqual(
    ignored.map((e) => expect.objectContaining({ reason: expect.stringContaining(e.reason) })),
  )
  expect(lines.filter((l) => l.message === 'event ignored')).toEqual(
    ignored.map((e) => ({
      level: 'warn',
      message: 'event ignored',
      attributes: expect.objectContaining({ reason: expect.stringContaining(e.reason) }),
    })),
  )
  expect(mutations).toEqual([])
  if (runs.some((r) => r.firstActs)) expect(earlierMutations).toBeGreaterThan(0)
  if (runs.length === 0) {
    // Not even a client is created: the invocation never reached AWS.
    expect(calls).toEqual([])
    expect(cloudsAsked).toEqual([])
    expect(summary.regions).toEqual([])
  } else {
    expect(summary.regions).toEqual(
      runs.map((r) => expect.objectContaining({ region: r.region, strays: [] })),
    )
    for (const region of summary.regions) {
      expect(region.error).toBeUndefined()
      for (const group of region.groups ?? []) expect(group.actions).toEqual([])
    }
  }
}

const corpus = loadEventCorpus()
const rows = (entries: readonly EventEntry[]): [string, EventEntry][] => entries.map((e) => [e.name, e])

describe('event corpus through the replacer', () => {
  describe('a logged no-op that never throws and changes nothing', () => {
    it.each(rows(corpus.filter((e) => !e.knownBug.replacer)))('%s', (_, entry) => checkReplacer(entry))
    // Known product bugs (see the entry's knownBug): these pass while the bug exists.
    it.fails.each(rows(corpus.filter((e) => e.knownBug.replacer)))('%s', (_, entry) => checkReplacer(entry))
  })

  const bounded = async (entry: EventEntry) => {
    const { lines } = await deliverToReplacer(entry)
    expect(longestLine(lines)).toBeLessThan(MAX_LOG_LINE)
  }
  describe(`log lines stay under ${MAX_LOG_LINE} characters whatever the input size`, () => {
    it.each(rows(corpus.filter((e) => !e.logBoundBug)))('%s', (_, entry) => bounded(entry))
    it.fails.each(rows(corpus.filter((e) => e.logBoundBug)))('%s', (_, entry) => bounded(entry))
  })
})
