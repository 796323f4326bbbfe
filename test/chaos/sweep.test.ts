/**
 * A small chaos run inside `npm test`: 20 random cases (seeds 1-20, as `npm run chaos -- --runs 20
 * --seed 1` runs them), every invariant checked after every step. `.ci/run` runs a few hundred.
 */
import { describe, expect, it } from 'vitest'
import { reproduction } from '../../tools/chaos/command.ts'
import { sweep } from '../../tools/chaos/runner.ts'

describe('chaos sweep', () => {
  it('breaks no invariant in 20 random cases', async () => {
    const { failed } = await sweep({ runs: 20, seed: 1 })
    const failures = failed.map(
      (f) => `${reproduction(f.seed)}: ${f.violations.map((v) => v.invariant).join(', ')}${f.error ?? ''}`,
    )
    expect(failures).toEqual([])
  }, 60_000)
})
