/** Builders for core inputs: realistic defaults from the committed real-data fixtures, varied per test. */

import type { GroupConfig } from '../../lambdas/core/config/config.ts'
import { BUILT_IN_DEFAULTS } from '../../lambdas/core/config/settings.ts'
import {
  TAG_LAUNCH_TEMPLATE_ID,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REPLACED_TYPE,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
} from '../../lambdas/core/constants.ts'
import type { PlanInput } from '../../lambdas/core/plan/planner.ts'
import {
  type Group,
  type GroupMember,
  type Instance,
  NO_TRAFFIC_SOURCES,
  type SpotPriceBook,
  spotPriceBook,
} from '../../lambdas/core/types.ts'
import { embeddedOnDemandPrices } from '../../lambdas/data/on-demand-prices.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { embeddedSpotPriceSteps, embeddedSpotWindow } from '../../tools/data/spot-prices.ts'

export const NOW = new Date('2022-05-31T23:00:00Z')
export const minutesAgo = (minutes: number, now = NOW): Date => new Date(now.getTime() - minutes * 60_000)

let counter = 0
export const nextId = (): string => `i-${(++counter).toString(16).padStart(17, '0')}`

export const anInstance = (overrides: Partial<Instance> = {}): Instance => ({
  id: nextId(),
  type: 'm5.large',
  zone: 'us-east-1a',
  subnetId: 'subnet-a',
  lifecycle: 'on-demand',
  state: 'running',
  launchTime: minutesAgo(600),
  tags: {},
  platform: 'Linux/UNIX',
  ...overrides,
})

/** The template of the groups aGroup builds; EC2 tags what is launched from it (TAG_LAUNCH_TEMPLATE_ID). */
export const GROUP_TEMPLATE_ID = 'lt-0123'

/**
 * A spot instance launched for group `web` to replace `partner`, ten minutes ago unless overridden, from
 * the group's template. planInput records it as its partner's attempt outcome, as the launch did.
 */
export const spotFor = (partner: Instance, overrides: Partial<Instance> = {}): Instance =>
  anInstance({
    lifecycle: 'spot',
    zone: partner.zone,
    launchTime: minutesAgo(10),
    tags: {
      [TAG_LAUNCH_TEMPLATE_ID]: GROUP_TEMPLATE_ID,
      [TAG_LAUNCHED_FOR_GROUP]: 'web',
      [TAG_REPLACING_INSTANCE]: partner.id,
      [TAG_REPLACED_TYPE]: partner.type,
    },
    ...overrides,
  })

export const memberOf = (instance: Instance, overrides: Partial<GroupMember> = {}): GroupMember => ({
  instanceId: instance.id,
  lifecycleState: 'InService',
  healthStatus: 'Healthy',
  protectedFromScaleIn: false,
  zone: instance.zone,
  instanceType: instance.type,
  ...overrides,
})

export const aGroup = (members: readonly GroupMember[], overrides: Partial<Group> = {}): Group => ({
  name: 'web',
  region: 'us-east-1',
  minSize: 0,
  maxSize: members.length + 2,
  desiredCapacity: members.length,
  healthCheckGracePeriodSeconds: 300,
  tags: { 'spot-enabled': 'true' },
  propagatedTags: {},
  launchTemplate: { id: GROUP_TEMPLATE_ID, name: 'web', version: '$Default' },
  launchConfigurationName: undefined,
  mixedInstancesPolicy: undefined,
  suspendedProcesses: [],
  trafficSources: NO_TRAFFIC_SOURCES,
  capacityRebalance: false,
  members,
  subnetIds: ['subnet-a', 'subnet-b'],
  status: undefined,
  ...overrides,
})

/** Real us-east-1 spot prices (Linux/UNIX) by pool (`type/zone`) as they stood at `at`, from the May-2022 snapshot. */
export const realSpotPools = (at: Date = NOW, region = 'us-east-1'): ReadonlyMap<string, number> => {
  const pools = new Map<string, number>()
  for (const [pool, steps] of embeddedSpotPriceSteps(region)) {
    const current = [...steps].reverse().find((s) => s.at.getTime() <= at.getTime()) ?? steps[0]
    if (current) pools.set(pool, current.priceUsd)
  }
  return pools
}

/** The same prices as a book, as the planner reads them. */
export const realSpotPrices = (at: Date = NOW, region = 'us-east-1'): SpotPriceBook =>
  spotPriceBook(realSpotPools(at, region))

export const realOnDemandPrices = (): ReadonlyMap<string, number> =>
  embeddedOnDemandPrices('us-east-1', 'Linux/UNIX').prices

export const config = (overrides: Partial<GroupConfig> = {}): GroupConfig => ({
  ...BUILT_IN_DEFAULTS,
  ...overrides,
})

/** A group of `count` on-demand m5.large (oldest first) and the plan input around it. */
export const onDemandFleet = (count: number, type = 'm5.large'): Instance[] =>
  Array.from({ length: count }, (_, i) =>
    anInstance({
      type,
      launchTime: minutesAgo(1000 - i * 10),
      zone: i % 2 === 0 ? 'us-east-1a' : 'us-east-1b',
    }),
  )

/**
 * The instances as spotswap's launches leave them: a partner without an attempt tag records the newest
 * spot instance naming it as its launch's outcome (`1:<id>@<launch time>`). A test that sets the tag
 * itself (another outcome, a forged one) keeps its own.
 */
export const withRecordedOutcomes = (instances: readonly Instance[]): Instance[] => {
  const newest = new Map<string, Instance>()
  for (const instance of instances) {
    const partner = instance.lifecycle === 'spot' ? instance.tags[TAG_REPLACING_INSTANCE] : undefined
    const known = partner === undefined ? undefined : newest.get(partner)
    if (partner !== undefined && (known === undefined || known.launchTime < instance.launchTime))
      newest.set(partner, instance)
  }
  return instances.map((instance) => {
    const launch = newest.get(instance.id)
    if (launch === undefined || instance.tags[TAG_REPLACEMENT_ATTEMPT] !== undefined) return instance
    const tag = `1:${launch.id}@${launch.launchTime.toISOString()}`
    return { ...instance, tags: { ...instance.tags, [TAG_REPLACEMENT_ATTEMPT]: tag } }
  })
}

export const planInput = (
  instances: readonly Instance[],
  overrides: Partial<PlanInput> & {
    groupOverrides?: Partial<Group>
    memberOverrides?: Partial<GroupMember>
    /** Instances observed outside the group, e.g. a partner that left it (detached, or terminated). */
    others?: readonly Instance[]
  } = {},
): PlanInput => {
  const { groupOverrides, memberOverrides, others = [], ...rest } = overrides
  const launched = rest.launched ?? []
  return {
    group: aGroup(
      instances.map((i) => memberOf(i, memberOverrides)),
      groupOverrides,
    ),
    instances: new Map(withRecordedOutcomes([...instances, ...others, ...launched]).map((i) => [i.id, i])),
    launched,
    catalog: embeddedCatalog(),
    spotPrices: realSpotPrices(),
    onDemandPrices: realOnDemandPrices(),
    config: config(),
    scheduleMinutes: 5,
    terminationProtected: new Set(),
    stackStatus: undefined,
    now: NOW,
    ...rest,
  }
}

export { embeddedSpotWindow }
