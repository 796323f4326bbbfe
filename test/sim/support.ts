/**
 * Small simulated accounts for the simulator's tests: a scenario written as JSON (the same format as
 * scenario files), a world built from it, and a port bound to a fresh invocation.
 */

import { TAG_REPLACING_INSTANCE } from '../../lambdas/core/constants.ts'
import { silentLog } from '../../lambdas/core/log.ts'
import type { CloudPort } from '../../lambdas/core/port.ts'
import { embeddedTrace } from '../../tools/data/capacity-traces.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { buildWorld } from '../../tools/sim/build.ts'
import { simCloud } from '../../tools/sim/cloud.ts'
import type { FaultHooks, Session } from '../../tools/sim/faults.ts'
import { ScenarioError } from '../../tools/sim/scenario/check.ts'
import { parseScenario } from '../../tools/sim/scenario/parse.ts'
import type { Scenario } from '../../tools/sim/scenario/types.ts'
import type { SimGroup, SimInstance, SimRegion } from '../../tools/sim/state.ts'
import type { World } from '../../tools/sim/world.ts'

export const START = '2022-05-31T18:00:00Z'
export const START_MS = Date.parse(START)
export const REGION = 'us-east-1'
export const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1d']

export type RawGroup = Record<string, unknown> & { name: string }

export const group = (name: string, overrides: Record<string, unknown> = {}): RawGroup => ({
  name,
  instanceType: 'm5.large',
  min: 0,
  max: 6,
  desired: 3,
  tags: { 'spot-enabled': 'true' },
  ...overrides,
})

/** A scenario object in the file format: one region with the given groups. */
export const rawScenario = (
  groups: readonly RawGroup[],
  overrides: Record<string, unknown> = {},
  region: Record<string, unknown> = {},
): Record<string, unknown> => ({
  name: 'test',
  seed: 7,
  start: START,
  durationHours: 2,
  scheduleMinutes: 5,
  env: {},
  regions: { [REGION]: { zones: ZONES, groups, ...region } },
  ...overrides,
})

export const parse = (raw: unknown): Scenario =>
  parseScenario(raw, {
    source: 'test',
    catalog: embeddedCatalog(),
    resolveTrace: (name) => embeddedTrace(name),
  })

/** The problems a scenario the parser must reject is rejected with. */
export const problemsOf = (raw: unknown) => {
  try {
    parse(raw)
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems
    throw error
  }
  throw new Error('expected the scenario to be rejected')
}

export interface TestWorld {
  readonly world: World
  readonly region: SimRegion
  group(name: string): SimGroup
  /** The real adapter over the simulated SDK clients, for a new invocation (a replacer run by default). */
  cloud(actor?: Session['actor']): CloudPort & { readonly session: Session }
  /** Processes every event due up to `ms` after the current time. */
  advance(ms: number): Promise<void>
  members(name: string, state?: string): SimInstance[]
}

export const testWorld = (raw: unknown, faults?: FaultHooks): TestWorld => {
  const world = buildWorld(parse(raw), { catalog: embeddedCatalog(), ...(faults ? { faults } : {}) })
  const region = world.region(REGION)
  let sessions = 0
  return {
    world,
    region,
    group: (name) => {
      const found = region.groups.get(name)
      if (found === undefined) throw new Error(`no group ${name}`)
      return found
    },
    cloud: (actor = 'replacer') => {
      const session: Session = { id: ++sessions, actor, region: REGION, crashed: false, failedCalls: 0 }
      return Object.assign(simCloud(world, REGION, session, silentLog), { session })
    },
    advance: async (ms) => {
      const until = world.clock.now + ms
      for (let event = world.clock.popDue(until); event !== undefined; event = world.clock.popDue(until))
        await event.run()
      world.clock.advanceTo(until)
    },
    members: (name, state) => {
      const found = region.groups.get(name)
      return [...(found?.members ?? [])]
        .filter(([, member]) => state === undefined || member.lifecycleState === state)
        .flatMap(([id]) => region.instances.get(id) ?? [])
    },
  }
}

/** Launches one spot instance for a group through the adapter, as the replacer would (to replace `partner`). */
export const launchSpotFor = async (
  cloud: CloudPort,
  groupName: string,
  instanceType: string,
  zone: string,
  token = `token-${instanceType}-${zone}`,
  partner?: string,
) =>
  cloud.launchSpot({
    groupName,
    launchTemplate: { id: 'lt-1', name: undefined, version: '$Default' },
    launchConfigurationName: undefined,
    overrides: [{ instanceType, zone, subnetId: `subnet-${zone}`, priority: 0 }],
    allocationStrategy: 'lowest-price',
    tags: {
      'launched-for-asg': groupName,
      ...(partner === undefined ? {} : { [TAG_REPLACING_INSTANCE]: partner }),
    },
    clientToken: token,
  })
