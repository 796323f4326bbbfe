import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BUILTIN_SCENARIO, loadScenarioFile } from '../../tools/sim/scenario/load.ts'
import { FAULT_FIELDS, INTERRUPTION_FIELDS, SCENARIO_FIELDS } from '../../tools/sim/scenario/parse.ts'
import { GROUP_FIELDS } from '../../tools/sim/scenario/parse-group.ts'
import { LOAD_BALANCER_FIELDS } from '../../tools/sim/scenario/parse-load-balancer.ts'
import { REGION_FIELDS } from '../../tools/sim/scenario/parse-region.ts'

const SCENARIOS = join(import.meta.dirname, '../../scenarios')
const files = [
  BUILTIN_SCENARIO,
  ...readdirSync(join(SCENARIOS, 'examples'))
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(SCENARIOS, 'examples', name)),
]

interface SchemaObject {
  readonly properties: Record<string, SchemaObject>
  readonly required?: readonly string[]
  readonly items?: SchemaObject
  readonly $defs?: Record<string, SchemaObject>
}
const schema = JSON.parse(readFileSync(join(SCENARIOS, 'scenario.schema.json'), 'utf8')) as SchemaObject
const defs = schema.$defs ?? {}
const keys = (object: SchemaObject | undefined) => Object.keys(object?.properties ?? {}).sort()

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
  it.each([
    ['the scenario', schema, SCENARIO_FIELDS],
    ['a region', defs.region, REGION_FIELDS],
    ['a group', defs.group, GROUP_FIELDS],
    ['a load balancer', defs.loadBalancer, LOAD_BALANCER_FIELDS],
    ['faults', schema.properties.faults, FAULT_FIELDS],
    ['an interruption', schema.properties.interruptions?.items, INTERRUPTION_FIELDS],
  ])('documents exactly the fields the parser accepts for %s', (_, object, fields) => {
    expect(keys(object)).toEqual([...fields].sort())
  })

  it('requires what the parser requires', () => {
    expect([...(schema.required ?? [])].sort()).toEqual([
      'durationHours',
      'name',
      'regions',
      'scheduleMinutes',
      'seed',
      'start',
    ])
    expect([...(defs.group?.required ?? [])].sort()).toEqual([
      'desired',
      'instanceType',
      'max',
      'min',
      'name',
    ])
    expect(defs.loadBalancer?.required).toEqual(['type'])
  })
})
