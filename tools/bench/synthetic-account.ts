/**
 * Accounts of any size in the scenario file format, for the large-account scenario and the scale
 * figures: every region of the embedded price snapshot (and, beyond its 17, regions that borrow the
 * prices of one of them), each with the zones holding the most spot pools, and groups of common types.
 * Deterministic: the same options give the same JSON.
 */
import { embeddedRegions, embeddedSpotPriceSteps, embeddedZones } from '../data/spot-prices.ts'

/** Common current types, in the order groups cycle through them. */
export const GROUP_TYPES = [
  'm5.large',
  'c5.xlarge',
  'r5.large',
  'm5.2xlarge',
  'c5.large',
  'm5.xlarge',
  'r5.xlarge',
  'c5.2xlarge',
] as const

/** Real region names the snapshot lacks, and the region whose prices they borrow. */
const BORROWED_REGIONS: readonly (readonly [string, string])[] = [
  ['af-south-1', 'eu-west-1'],
  ['ap-east-1', 'ap-southeast-1'],
  ['me-south-1', 'eu-central-1'],
]

export interface AccountShape {
  readonly name: string
  readonly description: string
  /** How many regions (the snapshot's in name order, then the borrowing ones), or their names. */
  readonly regions: number | readonly string[]
  readonly groupsPerRegion: number
  /** Every group's size, or `varied`: 2 to 16 instances, some with an on-demand minimum, some scaling daily, some not managed. */
  readonly instancesPerGroup: number | 'varied'
  readonly durationHours: number
  readonly zonesPerRegion?: number
  /** EC2's request throttling (default on); scale runs turn it off to measure CPU, not simulated backoff. */
  readonly throttle?: boolean
}

const START = '2022-05-31T18:00:00Z'

/** The zones with the most priced pools, in name order. */
const zonesOf = (region: string, count: number): string[] => {
  const pools = [...embeddedSpotPriceSteps(region).keys()]
  return embeddedZones(region)
    .map((zone) => ({ zone, pools: pools.filter((key) => key.endsWith(`/${zone}`)).length }))
    .sort((a, b) => b.pools - a.pools || (a.zone < b.zone ? -1 : 1))
    .slice(0, count)
    .map(({ zone }) => zone)
    .sort()
}

/** `{ type: { zone: price } }` of the source region's pools, renamed into the borrowing region's zones. */
const borrowedPrices = (source: string, zones: readonly string[]) => {
  const prices: Record<string, Record<string, number>> = {}
  const sourceZones = zonesOf(source, zones.length)
  for (const [key, steps] of embeddedSpotPriceSteps(source)) {
    const [type = '', zone = ''] = key.split('/')
    const index = sourceZones.indexOf(zone)
    const first = steps[0]
    if (index < 0 || first === undefined) continue
    prices[type] ??= {}
    ;(prices[type] as Record<string, number>)[zones[index] as string] = first.priceUsd
  }
  return prices
}

const variedGroup = (region: string, index: number) => {
  const sizes = [2, 3, 4, 6, 8, 10, 12, 16]
  const desired = sizes[index % sizes.length] as number
  const managed = index % 7 !== 6
  const tags: Record<string, string> = managed ? { 'spot-enabled': 'true' } : { team: 'legacy' }
  if (managed && index % 4 === 3) tags.autospotting_min_on_demand_number = '1'
  const scales = index % 5 === 4
  return {
    name: `${region}-g${String(index).padStart(3, '0')}`,
    instanceType: GROUP_TYPES[index % GROUP_TYPES.length],
    min: 1,
    max: desired * 2,
    desired,
    tags,
    healthCheckGracePeriod: [0, 60, 300][index % 3],
    ...(scales
      ? {
          desiredSchedule: [
            ['2022-06-01T00:00:00Z', Math.max(1, Math.floor(desired / 2))],
            ['2022-06-01T12:00:00Z', desired],
          ],
        }
      : {}),
  }
}

const fixedGroup = (region: string, index: number, size: number) => ({
  name: `${region}-g${String(index).padStart(3, '0')}`,
  instanceType: GROUP_TYPES[index % GROUP_TYPES.length],
  min: 0,
  max: size * 2,
  desired: size,
  tags: { 'spot-enabled': 'true' },
})

/** The account as a scenario file's JSON (parse it with parseScenario or write it out). */
export const syntheticAccount = (shape: AccountShape): Record<string, unknown> => {
  const zoneCount = shape.zonesPerRegion ?? 3
  const known = [
    ...embeddedRegions().map((region) => ({ region, source: region })),
    ...BORROWED_REGIONS.map(([region, source]) => ({ region, source })),
  ]
  const chosen =
    typeof shape.regions === 'number'
      ? known.slice(0, shape.regions)
      : known.filter(({ region }) => (shape.regions as readonly string[]).includes(region))
  if (chosen.length !== (typeof shape.regions === 'number' ? shape.regions : shape.regions.length))
    throw new Error(
      `syntheticAccount: at most ${known.length} regions, from the embedded snapshot and ${BORROWED_REGIONS.map(([r]) => r).join(', ')}`,
    )
  const regions: Record<string, unknown> = {}
  for (const { region, source } of chosen) {
    const sourceZones = zonesOf(source, zoneCount)
    const zones = sourceZones.map((zone) => `${region}${zone.slice(-1)}`)
    const groups = Array.from({ length: shape.groupsPerRegion }, (_, i) =>
      shape.instancesPerGroup === 'varied'
        ? variedGroup(region, i)
        : fixedGroup(region, i, shape.instancesPerGroup),
    )
    regions[region] = {
      zones,
      ...(source === region ? {} : { spotPrices: borrowedPrices(source, zones) }),
      groups,
    }
  }
  return {
    name: shape.name,
    description: shape.description,
    seed: 20220531,
    start: START,
    durationHours: shape.durationHours,
    scheduleMinutes: 5,
    env: { TAG_FILTERS: 'spot-enabled=true' },
    regions,
    ...(shape.throttle === false ? { faults: { throttle: false } } : {}),
  }
}

/** bench/scenarios/large-account.json is this account (the bench test checks the file still matches). */
export const LARGE_ACCOUNT: AccountShape = {
  name: 'large-account',
  description:
    'A large account for scale: 40 groups in each of eu-west-1, us-east-1 and us-west-2 (120 groups, about 800 instances) of eight common types, 2 to 16 instances each; one group in four keeps an on-demand instance, one in five halves at 00:00Z and grows back at 12:00Z, one in seven is not managed. One day on the real prices of 2022-05-31, with EC2 request throttling. Generated by syntheticAccount(LARGE_ACCOUNT) in tools/bench/synthetic-account.ts.',
  regions: ['eu-west-1', 'us-east-1', 'us-west-2'],
  groupsPerRegion: 40,
  instancesPerGroup: 'varied',
  durationHours: 24,
}
