/**
 * Scenario files: JSON in, a validated Scenario out, or a ScenarioError listing every problem with its
 * path, what was expected and what was found. The format is documented in scenarios/scenario.schema.json.
 */
import type { Catalog } from '../../../lambdas/core/types.ts'
import { embeddedOnDemandPrices } from '../../../lambdas/data/on-demand-prices.ts'
import type { CapacityTrace } from '../../data/capacity-traces.ts'
import { Checker, childPath, type Json, ScenarioError } from './check.ts'
import { parseRegion, REGION_NAME } from './parse-region.ts'
import type { Scenario, ScenarioInterruption, ScenarioRegion } from './types.ts'

export const SCENARIO_FIELDS = [
  '$schema',
  'name',
  'description',
  'seed',
  'start',
  'durationHours',
  'scheduleMinutes',
  'env',
  'regions',
  'faults',
  'interruptions',
] as const
export const FAULT_FIELDS = ['apiErrorRate', 'throttle', 'crashRate'] as const
export const INTERRUPTION_FIELDS = ['at', 'group', 'count'] as const

/** A year of simulated time is far beyond any use and still fast to reject. */
const MAX_DURATION_HOURS = 24 * 366
const MAX_SEED = 2 ** 32 - 1

export interface ParseOptions {
  /** Named in error messages, e.g. the file path. */
  readonly source: string
  readonly catalog: Catalog
  readonly resolveTrace: (reference: string) => CapacityTrace | undefined
}

const parseEnv = (check: Checker, raw: Json | undefined): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw === undefined ? {} : (check.map('$.env', raw) ?? {}))) {
    if (typeof value === 'string') env[name] = value
    else check.fail(childPath('$.env', name), 'a string (environment variables are strings)', value)
  }
  return env
}

const parseFaults = (check: Checker, raw: Json | undefined): Scenario['faults'] => {
  const fields = raw === undefined ? {} : (check.object('$.faults', raw, FAULT_FIELDS) ?? {})
  const rate = (key: 'apiErrorRate' | 'crashRate') =>
    fields[key] === undefined ? 0 : (check.number(`$.faults.${key}`, fields[key], 0, 1) ?? 0)
  return {
    apiErrorRate: rate('apiErrorRate'),
    throttle:
      fields.throttle === undefined ? true : (check.boolean('$.faults.throttle', fields.throttle) ?? true),
    crashRate: rate('crashRate'),
  }
}

const parseInterruptions = (
  check: Checker,
  raw: Json | undefined,
  groups: ReadonlySet<string>,
): ScenarioInterruption[] =>
  (raw === undefined ? [] : (check.array('$.interruptions', raw) ?? [])).flatMap((entry, i) => {
    const path = `$.interruptions[${i}]`
    const fields = check.object(path, entry, INTERRUPTION_FIELDS)
    if (fields === undefined) return []
    const at = check.time(`${path}.at`, fields.at)
    let group = check.string(`${path}.group`, fields.group)
    if (group !== undefined && !groups.has(group))
      group = check.fail(`${path}.group`, 'the name of a group of the scenario', group)
    const count = check.integer(`${path}.count`, fields.count, 1, 10_000)
    return at === undefined || group === undefined || count === undefined ? [] : [{ at, group, count }]
  })

export const parseScenario = (raw: unknown, options: ParseOptions): Scenario => {
  const check = new Checker()
  const fields = check.object('$', raw, SCENARIO_FIELDS)
  if (fields === undefined) throw new ScenarioError(options.source, check.problems)
  const name = check.string('$.name', fields.name)
  const seed = check.integer('$.seed', fields.seed, 0, MAX_SEED)
  const start = check.time('$.start', fields.start)
  const durationHours = check.number('$.durationHours', fields.durationHours, 0, MAX_DURATION_HOURS, true)
  const scheduleMinutes = check.integer('$.scheduleMinutes', fields.scheduleMinutes, 1, 1440)
  const description =
    fields.description === undefined ? undefined : check.string('$.description', fields.description)
  const env = parseEnv(check, fields.env)
  const regions: ScenarioRegion[] = []
  for (const [region, spec] of Object.entries(check.map('$.regions', fields.regions) ?? {})) {
    const path = childPath('$.regions', region)
    if (!REGION_NAME.test(region)) {
      check.fail(path, 'a region name such as "us-east-1"', region)
      continue
    }
    const onDemand = embeddedOnDemandPrices(region, 'Linux/UNIX').prices
    const parsed = parseRegion(check, path, region, spec, {
      catalog: options.catalog,
      resolveTrace: options.resolveTrace,
      onDemandPrice: (type) => onDemand.get(type),
    })
    if (parsed !== undefined) regions.push(parsed)
  }
  if (fields.regions !== undefined && regions.length === 0 && check.problems.length === 0)
    check.fail('$.regions', 'at least one region', fields.regions)
  const groupNames = new Set<string>()
  for (const region of regions)
    region.groups.forEach((group, i) => {
      if (groupNames.has(group.name))
        check.fail(
          `${childPath('$.regions', region.name)}.groups[${i}].name`,
          'a group name unique in the scenario',
          group.name,
        )
      groupNames.add(group.name)
    })
  const faults = parseFaults(check, fields.faults)
  const interruptions = parseInterruptions(check, fields.interruptions, groupNames)
  if (
    check.problems.length > 0 ||
    name === undefined ||
    seed === undefined ||
    start === undefined ||
    durationHours === undefined ||
    scheduleMinutes === undefined
  )
    throw new ScenarioError(options.source, check.problems)
  return {
    name,
    description,
    seed,
    start,
    durationHours,
    scheduleMinutes,
    env,
    regions,
    faults,
    interruptions,
  }
}
