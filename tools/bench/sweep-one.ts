/**
 * One scenario of the fault sweep at chosen levels, seeds and policies, without the rest of the bench (a
 * heavy scenario's single run takes a minute or more; the whole bench, ten):
 *
 *   node --import tsx tools/bench/sweep-one.ts SCENARIO [--levels none,both] [--seeds N] [--first-seed S]
 *     [--policies spotswap,on-demand]
 *
 * Prints one line of JSON per run with the figures the sweep records (fault-sweep.ts). Defaults: level
 * both, the scenario's own seed, spotswap.
 */
import { embeddedCatalog } from '../data/catalog.ts'
import { simulateRun } from '../sim/simulate.ts'
import { benchScenario } from './bench-scenario.ts'
import { FAULT_LEVELS, type FaultLevel, type SweptPolicy, sweepFigures } from './fault-sweep.ts'
import { SIMULATED_POLICIES } from './policies.ts'

const [key, ...rest] = process.argv.slice(2)
if (key === undefined || key.startsWith('--')) {
  process.stderr.write(
    'usage: sweep-one.ts SCENARIO [--levels L,..] [--seeds N] [--first-seed S] [--policies P,..]\n',
  )
  process.exit(2)
}
const option = (name: string, fallback: string): string => {
  const at = rest.indexOf(`--${name}`)
  return at >= 0 ? (rest[at + 1] ?? fallback) : fallback
}
const catalog = embeddedCatalog()
const scenario = benchScenario(key, catalog, false)
const levels = option('levels', 'both').split(',') as FaultLevel[]
const policies = option('policies', 'spotswap').split(',') as SweptPolicy[]
for (const level of levels) if (!(level in FAULT_LEVELS)) throw new Error(`unknown level ${level}`)
for (const policy of policies)
  if (!(policy in SIMULATED_POLICIES)) throw new Error(`unknown policy ${policy}`)
const firstSeed = Number(option('first-seed', String(scenario.seed)))
for (let i = 0; i < Number(option('seeds', '1')); i++)
  for (const policy of policies)
    for (const level of levels) {
      const seed = firstSeed + i
      const started = Date.now()
      const run = await simulateRun(
        { ...scenario, seed, faults: FAULT_LEVELS[level] },
        { policy: SIMULATED_POLICIES[policy], catalog },
      )
      const { faultFreeGroupsConvergenceMinutes: _, ...figures } = sweepFigures(run, new Set())
      const seconds = Math.round((Date.now() - started) / 1000)
      process.stdout.write(`${JSON.stringify({ key, seed, level, policy, ...figures, seconds })}\n`)
    }
