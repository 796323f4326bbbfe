import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeFailure } from '../../tools/chaos/command.ts'
import { judgeOpenDefects, readOpenDefects } from '../../tools/chaos/open-defects.ts'
import { runCli, tempDir, writeJson } from '../cli/support.ts'
import { chaosCase, group } from './support.ts'

describe('spotswap chaos', () => {
  it('runs N cases from seed S, ends with exactly the line "N passed, M failed" and fails if any failed', async () => {
    const run = await runCli(['chaos', '--runs', '2', '--seed', '1'])
    const last = run.out.trimEnd().split('\n').at(-1) ?? ''
    const [, passed, failed] = /^(\d+) passed, (\d+) failed$/.exec(last) ?? []
    expect(Number(passed) + Number(failed)).toBe(2)
    expect(run.code).toBe(Number(failed) === 0 ? 0 : 1)
  }, 30_000)

  it('splits the cases over child processes with --jobs and records the sweep with --record', async () => {
    const file = join(tempDir(), 'sweep.json')
    const run = await runCli(['chaos', '--runs', '4', '--seed', '3', '--jobs', '2', '--record', file])
    const record = JSON.parse(readFileSync(file, 'utf8'))
    expect(record).toMatchObject({ firstSeed: 3, runs: 4 })
    expect(record.passed + record.failed).toBe(4)
    expect(run.out.trimEnd().split('\n').at(-1)).toBe(`${record.passed} passed, ${record.failed} failed`)
  }, 60_000)

  it('refuses --jobs with --shrink: a failing seed is shrunk alone', async () => {
    const run = await runCli(['chaos', '--runs', '4', '--jobs', '2', '--shrink'])
    expect(run.code).toBe(2)
    expect(run.err).toContain('--jobs runs the cases in child processes')
  })

  it('prints a failing seed with its violations and a one-line reproduction command', () => {
    const text = describeFailure({
      seed: 1234,
      violations: [
        { at: '2022-05-31T18:10:00.000Z', group: 'web', invariant: 'orphan', detail: 'i-1 left behind' },
      ],
      error: undefined,
    })
    expect(text).toBe(
      'seed 1234 FAILED: npm run chaos -- --runs 1 --seed 1234\n  2022-05-31T18:10:00.000Z web orphan: i-1 left behind\n',
    )
  })

  it('replays a saved case', async () => {
    const file = writeJson(tempDir(), 'case.json', chaosCase({ groups: [group('web', { desired: 2 })] }))
    const run = await runCli(['chaos', '--replay', file])
    expect(run.out).toBe('1 passed, 0 failed\n')
    expect(run.code).toBe(0)
  }, 30_000)

  it('refuses a replay file that is not a chaos case', async () => {
    const file = writeJson(tempDir(), 'scenario.json', { name: 'not a case' })
    const run = await runCli(['chaos', '--replay', file])
    expect(run.code).toBe(2)
    expect(run.err).toContain('not a chaos case')
  })

  it.each([
    [['--runs', '0'], '--runs must be an integer of at least 1'],
    [['--runs', 'many'], "--runs must be an integer of at least 1, got 'many'"],
    [['--seed', '-3'], '--seed must be an integer of at least 0'],
    [['--sed', '1'], 'unknown option --sed; did you mean --seed?'],
    [['--replay', 'case.json', '--seed', '3'], 'it takes no --runs or --seed'],
  ])('refuses %j with exit code 2', async (argv, message) => {
    const run = await runCli(['chaos', ...argv])
    expect(run.code).toBe(2)
    expect(run.err).toContain(message)
  })
})

describe('open engine defects', () => {
  const defects = new Map([
    [5, 'known'],
    [9, 'known, out of range'],
  ])

  it('reports a listed seed that fails as open, and fails on any other failing seed', () => {
    expect(judgeOpenDefects({ firstSeed: 1, runs: 8, failedSeeds: [5, 6] }, defects)).toEqual({
      open: [5],
      unexpected: [6],
      fixed: [],
    })
  })

  it('fails on a listed seed in range that passes, so the list holds only seeds that still fail', () => {
    expect(judgeOpenDefects({ firstSeed: 1, runs: 10, failedSeeds: [] }, defects).fixed).toEqual([5, 9])
  })

  it('fails when a listed seed passes, and says to take it off the list', async () => {
    const file = writeJson(tempDir(), 'open.json', { '2': 'a defect since fixed (test)' })
    const run = await runCli(['chaos', '--runs', '2', '--seed', '1', '--open-defects', file])
    expect(run.out).toContain(`seed 2 passes: take it off ${file}`)
    expect(run.code).toBe(1)
  }, 60_000)

  it('lists the committed open defects with a reason each', () => {
    const listed = readOpenDefects('test/chaos/open-defects.json')
    for (const why of listed.values()) expect(why.length).toBeGreaterThan(20)
  })
})
