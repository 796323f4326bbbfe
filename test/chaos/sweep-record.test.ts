import { describe, expect, it } from 'vitest'
import { mergeRecords, readSweepRecord, type SweepRecord, sweepLine } from '../../tools/chaos/sweep-record.ts'

const slice = (firstSeed: number, runs: number, failedSeeds: number[] = [], violations = 0): SweepRecord => ({
  commit: 'abc1234',
  date: '2026-11-26T01:00:00.000Z',
  machine: '2 × AMD EPYC',
  firstSeed,
  runs,
  passed: runs - failedSeeds.length,
  failed: failedSeeds.length,
  failedSeeds,
  violations,
  durationSeconds: runs / 10,
})

describe('mergeRecords', () => {
  it('adds up contiguous slices in seed order, the slowest slice giving the duration', () => {
    const merged = mergeRecords([slice(5001, 5000, [7000], 2), slice(1, 5000, [12], 1)])
    expect(merged).toMatchObject({
      firstSeed: 1,
      runs: 10_000,
      passed: 9998,
      failed: 2,
      failedSeeds: [12, 7000],
      violations: 3,
      durationSeconds: 500,
    })
  })

  it.each([
    ['a gap', [slice(1, 10), slice(12, 10)]],
    ['an overlap', [slice(1, 10), slice(10, 10)]],
    ['nothing', []],
  ])('refuses slices with %s', (_, parts) => expect(mergeRecords(parts)).toBeUndefined())
})

describe('readSweepRecord', () => {
  it('reads a record back', () => {
    const record = slice(1, 300)
    expect(readSweepRecord(JSON.parse(JSON.stringify(record)))).toEqual(record)
  })

  it.each([
    ['null', null, 'not a JSON object'],
    ['a missing field', { ...slice(1, 10), runs: undefined }, 'runs: expected a number'],
    [
      'seeds that are not integers',
      { ...slice(1, 10), failedSeeds: ['7'] },
      'failedSeeds: expected a list of seeds',
    ],
    ['counts that do not add up', { ...slice(1, 10), passed: 3 }, 'passed + failed must equal runs'],
  ])('names what is wrong with %s', (_, raw, error) => expect(readSweepRecord(raw)).toEqual({ error }))
})

describe('sweepLine', () => {
  it('states runs, seeds and zero violations for a clean sweep', () => {
    expect(sweepLine({ ...slice(1, 10_000), durationSeconds: 600 })).toBe(
      'Latest full chaos sweep: 10,000 runs, seeds 1–10,000: 10,000 passed, 0 failed, violations = 0 (commit abc1234, 2026-11-26, 2 × AMD EPYC, 10 min).',
    )
  })

  it('names the failing seeds of a sweep that is not clean', () => {
    expect(sweepLine(slice(1, 100, [4, 9], 3))).toContain(
      '98 passed, 2 failed, 3 violation(s); failing seeds 4, 9',
    )
  })
})
