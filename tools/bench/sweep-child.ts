/**
 * One scenario's fault sweep in a process of its own (sweep-jobs.ts): the request as the only argument,
 * the ScenarioSweep as one line of JSON on stdout.
 */
import { embeddedCatalog } from '../data/catalog.ts'
import { benchScenario } from './bench-scenario.ts'
import { sweepScenario } from './fault-sweep.ts'
import type { SweepRequest } from './sweep-jobs.ts'

const request = JSON.parse(process.argv[2] ?? '{}') as SweepRequest
const catalog = embeddedCatalog()
const sweep = await sweepScenario(
  benchScenario(request.scenario, catalog, request.quick),
  catalog,
  request.plan,
)
process.stdout.write(`${JSON.stringify(sweep)}\n`)
