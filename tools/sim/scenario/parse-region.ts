/**
 * One region of a scenario, once the schema has passed it: its zones must be the region's, price and
 * capacity overrides must name catalogue types and the region's zones, traces must exist and be long
 * enough, and price steps are sorted by time.
 */
import { poolKey } from '../../../lambdas/core/types.ts'
import type { CapacityTrace } from '../../data/capacity-traces.ts'
import type { PriceStep } from '../market.ts'
import { childPath, type Problems } from './check.ts'
import type { CapacityFile, PriceFile, RegionFile } from './file-format.ts'
import { parseCommitments } from './parse-commitments.ts'
import { type GroupContext, parseGroup } from './parse-group.ts'
import type { ScenarioCapacity, ScenarioRegion } from './types.ts'

export interface RegionContext extends GroupContext {
  /** A trace by name or file, or undefined when there is no such trace. */
  readonly resolveTrace: (reference: string) => CapacityTrace | undefined
}

const checkZones = (problems: Problems, path: string, region: string, zones: readonly string[]): void =>
  zones.forEach((zone, i) => {
    if (!(zone.startsWith(region) && zone.length === region.length + 1))
      problems.fail(childPath(path, i), `a zone of ${region}, e.g. "${region}a"`, zone)
  })

const priceSteps = (problems: Problems, path: string, price: PriceFile): PriceStep[] =>
  typeof price === 'number'
    ? [{ at: Number.NEGATIVE_INFINITY, priceUsd: price }]
    : price
        .map(([time, priceUsd], i) => ({
          at: problems.time(childPath(childPath(path, i), 0), time),
          priceUsd,
        }))
        .sort((a, b) => a.at - b.at)

const parseSpotPrices = (problems: Problems, path: string, file: RegionFile, ctx: RegionContext) => {
  const prices = new Map<string, PriceStep[]>()
  for (const [type, byZone] of Object.entries(file.spotPrices ?? {})) {
    const typePath = childPath(path, type)
    if (!ctx.catalog.has(type)) {
      problems.fail(typePath, 'an instance type of the embedded catalogue', type)
      continue
    }
    for (const [zone, price] of Object.entries(byZone)) {
      const zonePath = childPath(typePath, zone)
      if (file.zones.includes(zone)) prices.set(poolKey(type, zone), priceSteps(problems, zonePath, price))
      else problems.fail(zonePath, `one of the region's zones (${file.zones.join(', ')})`, zone)
    }
  }
  return prices
}

const parsePool = (
  problems: Problems,
  path: string,
  file: CapacityFile,
  ctx: RegionContext,
): ScenarioCapacity | undefined => {
  if ('available' in file) return { kind: 'unavailable' }
  const trace = ctx.resolveTrace(file.trace)
  if (trace === undefined) {
    problems.fail(
      childPath(path, 'trace'),
      'an embedded trace name or a file in the spot-traces JSON format',
      file.trace,
    )
    return undefined
  }
  const startIndex = file.startIndex ?? 0
  if (startIndex < trace.data.length) return { kind: 'trace', traceName: file.trace, trace, startIndex }
  problems.fail(childPath(path, 'startIndex'), `an integer from 0 to ${trace.data.length - 1}`, startIndex)
  return undefined
}

const parseCapacity = (problems: Problems, path: string, file: RegionFile, ctx: RegionContext) => {
  const capacity = new Map<string, ScenarioCapacity>()
  for (const [pool, spec] of Object.entries(file.capacity ?? {})) {
    const at = childPath(path, pool)
    const [type = '', zone = ''] = pool.split('/')
    if (!ctx.catalog.has(type) || !file.zones.includes(zone)) {
      const zones = file.zones.join(', ')
      problems.fail(at, `"<instance type>/<zone>" with a known type and one of ${zones}`, pool)
      continue
    }
    const parsed = parsePool(problems, at, spec, ctx)
    if (parsed !== undefined) capacity.set(pool, parsed)
  }
  return capacity
}

export const parseRegion = (
  problems: Problems,
  path: string,
  name: string,
  file: RegionFile,
  ctx: RegionContext,
): ScenarioRegion => {
  checkZones(problems, childPath(path, 'zones'), name, file.zones)
  const groupsPath = childPath(path, 'groups')
  return {
    name,
    zones: file.zones,
    spotPrices: parseSpotPrices(problems, childPath(path, 'spotPrices'), file, ctx),
    capacity: parseCapacity(problems, childPath(path, 'capacity'), file, ctx),
    groups: file.groups.map((group, i) => parseGroup(problems, childPath(groupsPath, i), group, ctx)),
    ...(file.commitments === undefined
      ? {}
      : {
          commitments: parseCommitments(problems, childPath(path, 'commitments'), file.commitments, {
            region: name,
            zones: file.zones,
            catalog: ctx.catalog,
          }),
        }),
  }
}
