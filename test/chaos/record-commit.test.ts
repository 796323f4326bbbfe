import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { runCli, tempDir } from '../cli/support.ts'

// A commit lands once the cases have started: the commit reader answers `before` until then.
const state = vi.hoisted(() => ({ casesStarted: false }))
vi.mock('../../tools/shared/machine.ts', async (original) => ({
  ...(await original<typeof import('../../tools/shared/machine.ts')>()),
  currentCommit: () => (state.casesStarted ? 'after' : 'before'),
}))
vi.mock('../../tools/chaos/runner.ts', async (original) => {
  const runner = await original<typeof import('../../tools/chaos/runner.ts')>()
  return {
    ...runner,
    sweep: (...args: Parameters<typeof runner.sweep>) => {
      state.casesStarted = true
      return runner.sweep(...args)
    },
  }
})

describe('spotswap chaos --record', () => {
  it('records the commit read before the cases ran, not one made while they ran', async () => {
    const file = join(tempDir(), 'sweep.json')
    const run = await runCli(['chaos', '--runs', '1', '--seed', '1', '--record', file])
    expect(run.code).toBe(0)
    expect(state.casesStarted).toBe(true)
    expect(JSON.parse(readFileSync(file, 'utf8')).commit).toBe('before')
  }, 30_000)
})
