/**
 * Scenario files: JSON in, a validated Scenario out, or a ScenarioError listing every problem with its
 * path, what was expected and what was found. scenarios/scenario.schema.json checks the shape first
 * (schema.ts); what it cannot say (names unique across regions, interruptions of existing groups, the
 * catalogue, traces, rules between fields) is checked here and in parse-*.ts, which also fill in the
 * defaults and convert times into epoch milliseconds.
 */
import type { Catalog } from '../../../lambdas/core/types.ts'
import { embeddedOnDemandPrices } from '../../../lambdas/data/on-demand-prices.ts'
import type { CapacityTrace } from '../../data/capacity-traces.ts'
import { childPath, Problems, ScenarioError } from './check.ts'
import type { ScenarioFile } from './file-format.ts'
import { parseRegion } from './parse-region.ts'
import { validateScenarioFile } from './schema.ts'
import type { Scenario, ScenarioRegion } from './types.ts'

export interface ParseOptions {
  /** Named in error messages, e.g. the file path. */
  readonly source: string
  readonly catalog: Catalog
  readonly resolveTrace: (reference: string) => CapacityTrace | undefined
}

const checkUniqueGroupNames = (problems: Problems, regions: readonly ScenarioRegion[]): Set<string> => {
  const names = new Set<string>()
  for (const region of regions)
    region.groups.forEach((group, i) => {
      if (names.has(group.name))
        problems.fail(
          `${childPath('$.regions', region.name)}.groups[${i}].name`,
          'a group name unique in the scenario',
          group.name,
        )
      names.add(group.name)
    })
  return names
}

const parseInterruptions = (problems: Problems, file: ScenarioFile, groups: ReadonlySet<string>) =>
  (file.interruptions ?? []).map(({ at, group, count }, i) => {
    const path = `$.interruptions[${i}]`
    if (!groups.has(group)) problems.fail(`${path}.group`, 'the name of a group of the scenario', group)
    return { at: problems.time(`${path}.at`, at), group, count }
  })

const parseScheduledEvents = (problems: Problems, file: ScenarioFile, groups: ReadonlySet<string>) =>
  (file.scheduledEvents ?? []).map(({ at, group, count, code, leadMinutes, lifecycle }, i) => {
    const path = `$.scheduledEvents[${i}]`
    if (!groups.has(group)) problems.fail(`${path}.group`, 'the name of a group of the scenario', group)
    const leadMs = leadMinutes * 60_000
    return {
      at: problems.time(`${path}.at`, at),
      group,
      count,
      code,
      leadMs,
      lifecycle: lifecycle ?? 'on-demand',
    }
  })

export const parseScenario = (raw: unknown, options: ParseOptions): Scenario => {
  const valid = validateScenarioFile(raw)
  if ('problems' in valid) throw new ScenarioError(options.source, valid.problems)
  const { file } = valid
  const problems = new Problems()
  const regions = Object.entries(file.regions).map(([name, region]) => {
    const onDemand = embeddedOnDemandPrices(name, 'Linux/UNIX').prices
    return parseRegion(problems, childPath('$.regions', name), name, region, {
      catalog: options.catalog,
      resolveTrace: options.resolveTrace,
      onDemandPrice: (type) => onDemand.get(type),
    })
  })
  const groupNames = checkUniqueGroupNames(problems, regions)
  const scenario: Scenario = {
    name: file.name,
    description: file.description,
    seed: file.seed,
    start: problems.time('$.start', file.start),
    durationHours: file.durationHours,
    scheduleMinutes: file.scheduleMinutes,
    env: { ...file.env },
    regions,
    faults: {
      apiErrorRate: file.faults?.apiErrorRate ?? 0,
      throttle: file.faults?.throttle ?? true,
      crashRate: file.faults?.crashRate ?? 0,
    },
    interruptions: parseInterruptions(problems, file, groupNames),
    ...(file.scheduledEvents === undefined
      ? {}
      : { scheduledEvents: parseScheduledEvents(problems, file, groupNames) }),
  }
  if (problems.list.length > 0) throw new ScenarioError(options.source, problems.list)
  return scenario
}
