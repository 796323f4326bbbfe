import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SUSPENDED_PROCESSES } from '../../lambdas/core/group/suspended-processes.ts'
import { BUILTIN_SCENARIO, loadScenarioFile } from '../../tools/sim/scenario/load.ts'
import { LOAD_BALANCER_DEFAULTS } from '../../tools/sim/scenario/parse-load-balancer.ts'
import { parse, rawScenario } from './support.ts'

const SCENARIOS = join(import.meta.dirname, '../../scenarios')
const files = [
  BUILTIN_SCENARIO,
  ...readdirSync(join(SCENARIOS, 'examples'))
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(SCENARIOS, 'examples', name)),
]

interface SchemaObject {
  readonly properties: Record<string, SchemaObject & { readonly default?: unknown }>
  readonly items?: SchemaObject & { readonly enum?: readonly string[] }
  readonly $defs?: Record<string, SchemaObject>
  readonly enum?: readonly string[]
}
const schema = JSON.parse(readFileSync(join(SCENARIOS, 'scenario.schema.json'), 'utf8')) as SchemaObject
const defs = schema.$defs ?? {}
/** The `default` of each field of `object` that declares one. */
const defaults = (object: SchemaObject | undefined) =>
  Object.fromEntries(
    Object.entries(object?.properties ?? {}).flatMap(([key, field]) =>
      'default' in field ? [[key, field.default]] : [],
    ),
  )

describe('the committed scenarios', () => {
  it.each(files)('%s is valid', (file) => {
    const scenario = loadScenarioFile(file)
    expect(scenario.regions.length).toBeGreaterThan(0)
  })

  it('include a built-in account of a few regions and a dozen groups of different shapes', () => {
    const scenario = loadScenarioFile(BUILTIN_SCENARIO)
    const groups = scenario.regions.flatMap((r) => r.groups)
    expect(scenario.regions.length).toBeGreaterThanOrEqual(3)
    expect(groups.length).toBeGreaterThanOrEqual(12)
    expect(new Set(groups.map((g) => g.instanceType)).size).toBeGreaterThanOrEqual(8)
    expect(scenario.durationHours).toBe(24)
  })
})

describe('scenario.schema.json', () => {
  it('documents as defaults what the parser fills in', () => {
    const scenario = parse(
      rawScenario([{ name: 'web', instanceType: 'm5.large', min: 0, max: 1, desired: 1 }]),
    )
    expect(scenario.faults).toEqual(defaults(schema.properties.faults))
    expect(scenario.regions[0]?.groups[0]).toMatchObject(defaults(defs.group))
    expect(LOAD_BALANCER_DEFAULTS['target-group']).toMatchObject(defaults(defs.loadBalancer))
    expect(LOAD_BALANCER_DEFAULTS.classic).toMatchObject(defaults(defs.loadBalancer))
  })

  it('names the suspended processes and load balancer types the engine and simulator know', () => {
    expect(defs.group?.properties.suspendedProcesses?.items?.enum).toEqual(Object.keys(SUSPENDED_PROCESSES))
    expect(defs.loadBalancer?.properties.type?.enum).toEqual(Object.keys(LOAD_BALANCER_DEFAULTS))
  })
})
