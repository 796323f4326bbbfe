/**
 * Random chaos cases with fast-check: accounts of one or two regions with groups of every shape, tags
 * valid and hostile, load balancers with quick and slow health checks and replacements that never turn
 * healthy, the owner's scaling, price spikes, capacity outages (real traces and made-up ones),
 * interruptions, and the faults and races of generate-script.ts. `generateCase(seed)` is deterministic;
 * `caseArbitrary` lets fast-check shrink a failing case to a small one.
 */
import fc from 'fast-check'
import { type CapacityTrace, embeddedTrace } from '../data/capacity-traces.ts'
import { embeddedZones } from '../data/spot-prices.ts'
import type { ChaosCase, OwnerAction, QueuedRuns } from './case.ts'
import { chaosCommitments } from './commitments.ts'
import { CHAOS_START, type Draw, drawArbitrary, FILTER_KEY, REGIONS, START_MS } from './draw.ts'
import { ecsFieldOf } from './ecs-groups.ts'
import { stormOf } from './generate-script.ts'

const traceLengths = new Map<string, number>()
const traceLength = (name: string): number => {
  let length = traceLengths.get(name)
  if (length === undefined) {
    length = embeddedTrace(name)?.data.length ?? 1
    traceLengths.set(name, length)
  }
  return length
}

const at = (draw: Draw, permille: number): number =>
  START_MS + Math.floor((permille / 1000) * draw.durationHours * 3_600_000)
const iso = (ms: number): string => new Date(ms).toISOString()

const pick = <T>(items: readonly T[], index: number): T => items[index % items.length] as T

const envOf = (draw: Draw, regions: readonly string[]): Record<string, string> => {
  const env: Record<string, string> = Object.fromEntries(draw.env.settings)
  if (draw.env.filtering === 'opt-out') env.TAG_FILTERING_MODE = 'opt-out'
  if (draw.env.filtering === 'glob') env.TAG_FILTERS = `${FILTER_KEY}=t*`
  if (draw.env.regions === 'first') env.REGIONS = regions[0] as string
  if (draw.env.regions === 'glob') env.REGIONS = 'us-*'
  // Fatal: the Lambdas must start, say why, and touch nothing.
  if (draw.env.regions === 'invalid') env.REGIONS = 'us_east_1!'
  if (draw.env.dryRun !== '') env.DRY_RUN = draw.env.dryRun
  return env
}

/** A group's feature fields in the scenario format; the defaults are left out, so plain groups read as before. */
const featureFields = (draw: Draw, f: Draw['features'][number]): Record<string, unknown> => ({
  ...(f.launchHook ? { launchHook: true } : {}),
  ...(f.suspendedProcesses.length > 0 ? { suspendedProcesses: f.suspendedProcesses } : {}),
  ...(f.capacityRebalance ? { capacityRebalance: true } : {}),
  ...(f.warmPool === undefined ? {} : { warmPool: { minSize: f.warmPool } }),
  ...(f.refreshes.length > 0 ? { instanceRefreshes: f.refreshes.map((when) => iso(at(draw, when))) } : {}),
  ...(f.refreshesUnreadable ? { instanceRefreshesUnreadable: true } : {}),
})

const assemble = (seed: number, draw: Draw): ChaosCase => {
  const regionNames = Array.from({ length: draw.regionCount }, (_, i) => pick(REGIONS, draw.firstRegion + i))
  const zones = regionNames.map((name, i) => embeddedZones(name).slice(0, draw.zoneCounts[i]))
  const durationMs = draw.durationHours * 3_600_000
  const groups = draw.groups.map((g, i) => {
    const large = i === 0 ? draw.large : null
    const desired = large === null ? g.min + g.extraDesired : large.size
    const max = large === null ? Math.max(1, desired + g.extraMax) : large.size
    // A large group is opted in and replaces every member at once, so its swaps exceed 20 pairs.
    const tags: Record<string, string> =
      large === null
        ? { team: 'chaos', ...g.settings }
        : { team: 'chaos', autospotting_max_replacements_in_flight: '100%' }
    if (large !== null) tags[FILTER_KEY] = 'true'
    else if (g.filterTag !== undefined) tags[FILTER_KEY] = g.filterTag
    const traffic = draw.traffic[i]
    const features = draw.features[i]
    if (features?.launchHook && features.ignoreLaunchHooks !== undefined)
      tags.autospotting_ignore_launch_hooks = features.ignoreLaunchHooks
    return {
      region: g.region % draw.regionCount,
      spec: {
        name: `g${i + 1}`,
        instanceType: g.instanceType,
        min: g.min,
        max,
        desired,
        tags,
        healthCheckGracePeriod: g.grace,
        launch: g.launch,
        terminationHook: g.terminationHook,
        protectedFromScaleIn: Math.min(g.protectedFromScaleIn, desired),
        terminationProtected: Math.min(g.terminationProtected, desired),
        desiredSchedule: g.schedule.map(([when, level]) => [
          iso(at(draw, when)),
          g.min + Math.round((level / 1000) * (max - g.min)),
        ]),
        ...(traffic === undefined || traffic.loadBalancers.length === 0
          ? {}
          : {
              loadBalancers: traffic.loadBalancers,
              unhealthyReplacementFraction: traffic.unhealthyReplacementFraction,
            }),
        ...(features === undefined ? {} : featureFields(draw, features)),
        ...ecsFieldOf(g),
      },
    }
  })
  const traces: Record<string, CapacityTrace> = {}
  const regions = regionNames.map((name, r) => {
    const spotPrices: Record<string, Record<string, unknown>> = {}
    const capacity: Record<string, unknown> = {}
    draw.pools.forEach((pool, i) => {
      if (pool.region % draw.regionCount !== r) return
      const zone = pick(zones[r] as string[], pool.zone)
      const key = `${pool.type}/${zone}`
      if (pool.kind === 'price') {
        const steps = pool.prices.map(([when, tenths]) => [iso(at(draw, when)), tenths / 1000])
        spotPrices[pool.type] = { ...spotPrices[pool.type], [zone]: steps }
      } else if (pool.kind === 'unavailable') capacity[key] = { available: false }
      else if (pool.kind === 'trace')
        capacity[key] = { trace: pool.trace, startIndex: pool.startIndex % traceLength(pool.trace) }
      else {
        const name = `chaos/outage-${i}`
        traces[name] = pool.outage
        capacity[key] = { trace: name }
      }
    })
    return [
      name,
      {
        zones: zones[r],
        spotPrices,
        capacity,
        groups: groups.filter((g) => g.region === r).map((g) => g.spec),
        ...chaosCommitments(
          seed,
          name,
          zones[r] as string[],
          groups.filter((g) => g.region === r).map((g) => g.spec),
          START_MS,
          durationMs,
        ),
      },
    ] as const
  })
  const groupOf = (index: number) => pick(groups, index)
  const period = draw.scheduleMinutes * 60_000
  const queuedRuns = draw.queuedRuns.map((o): QueuedRuns => {
    const region = pick(regionNames, o.region)
    const sameRegion = groups.filter((g) => regionNames[g.region] === region)
    const start = at(draw, o.at)
    const boundary = START_MS + Math.max(1, Math.ceil((start - START_MS) / period)) * period
    return {
      atMs: o.nearBoundary ? boundary - o.leadMs : start,
      region,
      delayMs: o.nearBoundary ? o.leadMs : o.delayMs,
      secondGroup:
        o.secondGroup === null || sameRegion.length === 0
          ? undefined
          : pick(sameRegion, o.secondGroup).spec.name,
    }
  })
  const owner = [
    ...draw.owner.map(
      (o): OwnerAction => ({
        atMs: at(draw, o.at),
        region: regionNames[groupOf(o.group).region] as string,
        group: groupOf(o.group).spec.name,
        kind: o.kind,
        member: o.member,
      }),
    ),
    ...draw.maxSizeChanges.map(
      (o): OwnerAction => ({
        atMs: at(draw, o.at),
        region: regionNames[groupOf(o.group).region] as string,
        group: groupOf(o.group).spec.name,
        kind: o.raise ? 'raise-max-size' : 'lower-max-size',
        member: 0,
        by: o.by,
      }),
    ),
  ]
  return {
    seed,
    scenario: {
      name: `chaos-${seed}`,
      seed,
      start: CHAOS_START,
      durationHours: draw.durationHours,
      scheduleMinutes: draw.scheduleMinutes,
      env: envOf(draw, regionNames),
      regions: Object.fromEntries(regions),
      faults: { apiErrorRate: 0, throttle: draw.throttle, crashRate: 0 },
      interruptions: draw.interruptions.map(([when, group, count]) => ({
        at: iso(at(draw, when)),
        group: groupOf(group).spec.name,
        count,
      })),
    },
    traces,
    faults: {
      errorRate: draw.faults.errorRate,
      crashRate: draw.faults.crashRate,
      crashes: draw.faults.crashes,
      storms: draw.faults.storms.map((s) => stormOf(s, durationMs / 60_000)),
      // Not beside random crashes yet: a crashed run holds its region's runs for a visibility timeout, and
      // launches that old, refused their attach, read as orphans (chaos seed 2).
      ...(draw.large === null || draw.large.refusedAttaches.length === 0 || draw.faults.crashRate > 0
        ? {}
        : {
            refusals: draw.large.refusedAttaches.map((occurrence) => ({
              operation: 'autoscaling:AttachInstances',
              group: 'g1',
              occurrence,
            })),
          }),
    },
    queuedRuns,
    events: draw.events,
    owner,
  }
}

export const caseArbitrary = (seed: number): fc.Arbitrary<ChaosCase> =>
  drawArbitrary.map((draw) => assemble(seed, draw))

/** The case of `seed`: the first value fast-check draws with that seed, so `fc.check` with it starts there too. */
export const generateCase = (seed: number): ChaosCase => {
  const [chaos] = fc.sample(caseArbitrary(seed), { seed, numRuns: 1 })
  if (chaos === undefined) throw new Error(`fast-check drew no case for seed ${seed}`)
  return chaos
}
