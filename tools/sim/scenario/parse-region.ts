/** One region of a scenario: its zones, price overrides, pool capacity and groups. */
import { poolKey } from '../../../lambdas/core/types.ts'
import type { CapacityTrace } from '../../data/capacity-traces.ts'
import type { PriceStep } from '../market.ts'
import { type Checker, childPath, type Json } from './check.ts'
import { type GroupContext, parseGroup } from './parse-group.ts'
import type { ScenarioCapacity, ScenarioRegion } from './types.ts'

export const REGION_FIELDS = ['zones', 'spotPrices', 'capacity', 'groups'] as const
export const REGION_NAME = /^[a-z]{2}(-[a-z]+)+-\d$/
/** Spot prices above this are typos (the most expensive instance costs well under $100/hour). */
const MAX_PRICE_USD = 1000

export interface RegionContext extends GroupContext {
  /** A trace by name or file, or undefined when there is no such trace. */
  readonly resolveTrace: (reference: string) => CapacityTrace | undefined
}

const parseZones = (check: Checker, path: string, region: string, raw: Json | undefined): string[] => {
  const zonePattern = new RegExp(`^${region}[a-z]$`)
  const zones: string[] = []
  ;(check.array(path, raw, 1) ?? []).forEach((zone, i) => {
    const name = check.string(childPath(path, i), zone, zonePattern, `a zone of ${region}, e.g. "${region}a"`)
    if (name === undefined) return
    if (zones.includes(name)) check.fail(childPath(path, i), 'each zone once', name)
    else zones.push(name)
  })
  return zones
}

const parsePrice = (check: Checker, path: string, raw: Json): PriceStep[] | undefined => {
  if (typeof raw === 'number') {
    const price = check.number(path, raw, 0, MAX_PRICE_USD, true)
    return price === undefined ? undefined : [{ at: Number.NEGATIVE_INFINITY, priceUsd: price }]
  }
  const steps: PriceStep[] = []
  const entries = check.array(path, raw, 1)
  if (entries === undefined) return undefined
  entries.forEach((entry, i) => {
    const at = childPath(path, i)
    if (!Array.isArray(entry) || entry.length !== 2) {
      check.fail(at, 'a price in USD/hour or [<ISO time>, <price>]', entry)
      return
    }
    const time = check.time(childPath(at, 0), entry[0])
    const price = check.number(childPath(at, 1), entry[1], 0, MAX_PRICE_USD, true)
    if (time !== undefined && price !== undefined) steps.push({ at: time, priceUsd: price })
  })
  return steps.sort((a, b) => a.at - b.at)
}

const parseSpotPrices = (
  check: Checker,
  path: string,
  raw: Json | undefined,
  zones: readonly string[],
  ctx: RegionContext,
) => {
  const prices = new Map<string, PriceStep[]>()
  if (raw === undefined) return prices
  for (const [type, byZone] of Object.entries(check.map(path, raw) ?? {})) {
    const typePath = childPath(path, type)
    if (!ctx.catalog.has(type)) {
      check.fail(typePath, 'an instance type of the embedded catalogue', type)
      continue
    }
    for (const [zone, price] of Object.entries(check.map(typePath, byZone) ?? {})) {
      const zonePath = childPath(typePath, zone)
      if (!zones.includes(zone)) check.fail(zonePath, `one of the region's zones (${zones.join(', ')})`, zone)
      else {
        const steps = parsePrice(check, zonePath, price)
        if (steps !== undefined) prices.set(poolKey(type, zone), steps)
      }
    }
  }
  return prices
}

const parseCapacity = (
  check: Checker,
  path: string,
  raw: Json | undefined,
  zones: readonly string[],
  ctx: RegionContext,
) => {
  const capacity = new Map<string, ScenarioCapacity>()
  if (raw === undefined) return capacity
  for (const [pool, spec] of Object.entries(check.map(path, raw) ?? {})) {
    const at = childPath(path, pool)
    const [type = '', zone = ''] = pool.split('/')
    if (!ctx.catalog.has(type) || !zones.includes(zone)) {
      check.fail(at, `"<instance type>/<zone>" with a known type and one of ${zones.join(', ')}`, pool)
      continue
    }
    const fields = check.object(at, spec, ['trace', 'startIndex', 'available'])
    if (fields === undefined) continue
    if (fields.available !== undefined) {
      if (fields.available !== false || fields.trace !== undefined)
        check.fail(
          childPath(at, 'available'),
          'false, alone (a pool with a trace is available when the trace says so)',
          fields.available,
        )
      else capacity.set(pool, { kind: 'unavailable' })
      continue
    }
    const traceName = check.string(childPath(at, 'trace'), fields.trace)
    if (traceName === undefined) continue
    const trace = ctx.resolveTrace(traceName)
    if (trace === undefined) {
      check.fail(
        childPath(at, 'trace'),
        'an embedded trace name or a file in the spot-traces JSON format',
        traceName,
      )
      continue
    }
    const startIndex =
      fields.startIndex === undefined
        ? 0
        : check.integer(childPath(at, 'startIndex'), fields.startIndex, 0, trace.data.length - 1)
    if (startIndex !== undefined) capacity.set(pool, { kind: 'trace', traceName, trace, startIndex })
  }
  return capacity
}

export const parseRegion = (
  check: Checker,
  path: string,
  name: string,
  raw: Json,
  ctx: RegionContext,
): ScenarioRegion | undefined => {
  const fields = check.object(path, raw, REGION_FIELDS)
  if (fields === undefined) return undefined
  const zones = parseZones(check, childPath(path, 'zones'), name, fields.zones)
  const spotPrices = parseSpotPrices(check, childPath(path, 'spotPrices'), fields.spotPrices, zones, ctx)
  const capacity = parseCapacity(check, childPath(path, 'capacity'), fields.capacity, zones, ctx)
  const groupsPath = childPath(path, 'groups')
  const groups = (check.array(groupsPath, fields.groups) ?? []).flatMap((group, i) => {
    const parsed = parseGroup(check, childPath(groupsPath, i), group, ctx)
    return parsed === undefined ? [] : [parsed]
  })
  return { name, zones, spotPrices, capacity, groups }
}
