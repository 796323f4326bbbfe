import { describe, expect, it, vi } from 'vitest'

// A commit lands once the measurements have started: the commit reader answers `before` until then.
const state = vi.hoisted(() => ({ measuring: false }))
vi.mock('../../tools/shared/machine.ts', async (original) => ({
  ...(await original<typeof import('../../tools/shared/machine.ts')>()),
  currentCommit: () => (state.measuring ? 'after' : 'before'),
}))
vi.mock('../../tools/bench/scenario-run.ts', () => ({
  runScenario: async () => {
    state.measuring = true
    return { figures: {}, violations: {} }
  },
}))
vi.mock('../../tools/bench/scale.ts', async (original) => ({
  ...(await original<typeof import('../../tools/bench/scale.ts')>()),
  measureScale: async () => ({ figures: {}, details: {} }),
}))
vi.mock('../../tools/bench/lambda-figures.ts', async (original) => ({
  ...(await original<typeof import('../../tools/bench/lambda-figures.ts')>()),
  measureLambdas: async () => ({ figures: {}, details: [] }),
}))

describe('runBench', () => {
  it('records the commit read before it measured, not one made while it measured', async () => {
    const { runBench } = await import('../../tools/bench/bench.ts')
    const { results } = await runBench({ quick: true })
    expect(state.measuring).toBe(true)
    expect(results.commit).toBe('before')
    // The quick bench, fault sweep included, takes a minute or more on a loaded 2-core machine.
  }, 240_000)
})
