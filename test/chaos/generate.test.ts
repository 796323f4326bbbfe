/**
 * The generator must be deterministic per seed, produce only valid scenarios, and actually reach every
 * kind of trouble the chaos runs claim to cover: a sweep that never crashes during a swap proves nothing.
 */
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { embeddedOnDemandPrices } from '../../lambdas/data/on-demand-prices.ts'
import { type ChaosCase, scenarioOf } from '../../tools/chaos/case.ts'
import { CHAOS_START } from '../../tools/chaos/draw.ts'
import { generateCase } from '../../tools/chaos/generate.ts'
import { CRASH_OPERATIONS } from '../../tools/chaos/generate-script.ts'
import { SETTING_NAMES, SETTING_VALUES } from '../../tools/chaos/setting-values.ts'

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1)
const cases = SEEDS.map(generateCase)
const scenarios = cases.map(scenarioOf)

const groupsOf = (chaos: ChaosCase) => scenarioOf(chaos).regions.flatMap((r) => r.groups)
const anyCase = (predicate: (chaos: ChaosCase, index: number) => boolean): boolean => cases.some(predicate)
const tagValues = (setting: string): string[] =>
  scenarios.flatMap((s) =>
    s.regions.flatMap((r) => r.groups.flatMap((g) => g.tags[`autospotting_${setting.toLowerCase()}`] ?? [])),
  )

describe('generateCase', () => {
  it('draws the same case for the same seed, and another for another seed', () => {
    expect(generateCase(42)).toEqual(generateCase(42))
    expect(JSON.stringify(generateCase(42))).not.toEqual(JSON.stringify(generateCase(43)))
  })

  it('draws only valid scenarios (300 seeds)', () => {
    expect(scenarios).toHaveLength(SEEDS.length)
  })

  it.each(SETTING_NAMES)('gives %s valid and hostile values as group tags', (setting) => {
    const values = tagValues(setting)
    const known = SETTING_VALUES[setting]
    expect(values.some((v) => known?.valid.includes(v))).toBe(true)
    expect(values.some((v) => known?.invalid.includes(v))).toBe(true)
  })

  it.each(CRASH_OPERATIONS)('crashes the process at %s, before and after AWS applies it', (operation) => {
    const points = cases.flatMap((c) => c.faults.crashes).filter((p) => p.operation === operation)
    expect(new Set(points.map((p) => p.when))).toEqual(new Set(['before', 'after']))
  })

  const spikes = (chaos: ChaosCase): boolean =>
    scenarioOf(chaos).regions.some((region) =>
      [...region.spotPrices].some(([pool, steps]) => {
        const onDemand = embeddedOnDemandPrices(region.name, 'Linux/UNIX').prices.get(
          pool.split('/')[0] ?? '',
        )
        return onDemand !== undefined && steps.some((s) => s.priceUsd > onDemand)
      }),
    )

  it.each<[string, (chaos: ChaosCase, index: number) => boolean]>([
    ['a health check grace period of 0 s', (c) => groupsOf(c).some((g) => g.healthCheckGracePeriod === 0)],
    ['launch configurations', (c) => groupsOf(c).some((g) => g.launch === 'configuration')],
    ['termination lifecycle hooks', (c) => groupsOf(c).some((g) => g.terminationHook)],
    ['members protected from scale-in', (c) => groupsOf(c).some((g) => g.protectedFromScaleIn > 0)],
    ['members protected from API termination', (c) => groupsOf(c).some((g) => g.terminationProtected > 0)],
    ['groups at MaxSize', (c) => groupsOf(c).some((g) => g.desired === g.max && g.max > 0)],
    ['groups at desired 0', (c) => groupsOf(c).some((g) => g.desired === 0)],
    [
      'unmanaged groups',
      (_, i) =>
        (scenarios[i]?.regions ?? []).some((r) => r.groups.some((g) => g.tags['spot-enabled'] !== 'true')),
    ],
    ['the owner scaling', (c) => groupsOf(c).some((g) => g.desiredSchedule.length > 0)],
    ['target groups', (c) => groupsOf(c).some((g) => g.loadBalancers.some((b) => b.type === 'target-group'))],
    [
      'classic load balancers',
      (c) => groupsOf(c).some((g) => g.loadBalancers.some((b) => b.type === 'classic')),
    ],
    [
      'slow health checks (5 minutes and more)',
      (c) =>
        groupsOf(c).some((g) =>
          g.loadBalancers.some((b) => b.healthCheckIntervalSeconds * b.healthyThreshold >= 300),
        ),
    ],
    [
      'replacements that never turn healthy',
      (c) => groupsOf(c).some((g) => g.unhealthyReplacementFraction > 0),
    ],
    ['groups without load balancers', (c) => groupsOf(c).some((g) => g.loadBalancers.length === 0)],
    ['launch lifecycle hooks', (c) => groupsOf(c).some((g) => g.launchHook)],
    [
      'launch hooks whose owner opted in to swaps',
      (c) => groupsOf(c).some((g) => g.launchHook && g.tags.autospotting_ignore_launch_hooks === 'true'),
    ],
    ...['Launch', 'Terminate', 'AddToLoadBalancer', 'AZRebalance'].map(
      (process): [string, (chaos: ChaosCase) => boolean] => [
        `${process} suspended`,
        (c) => groupsOf(c).some((g) => g.suspendedProcesses.includes(process)),
      ],
    ),
    ['Capacity Rebalancing', (c) => groupsOf(c).some((g) => g.capacityRebalance)],
    ['warm pools', (c) => groupsOf(c).some((g) => g.warmPool !== undefined)],
    ['instance refreshes', (c) => groupsOf(c).some((g) => g.instanceRefreshes.length > 0)],
    ['unreadable instance refreshes', (c) => groupsOf(c).some((g) => g.instanceRefreshesUnreadable)],
    ['two regions', (c) => scenarioOf(c).regions.length === 2],
    [
      'a fatal environment (nothing may be touched)',
      (c) => parseGlobalConfig(scenarioOf(c).env).errors.some((e) => e.fatal),
    ],
    ['opt-out tag filtering', (c) => scenarioOf(c).env.TAG_FILTERING_MODE === 'opt-out'],
    ['spot prices above on-demand', spikes],
    [
      'pools that never have capacity',
      (c) =>
        scenarioOf(c).regions.some((r) => [...r.capacity.values()].some((p) => p.kind === 'unavailable')),
    ],
    [
      'real capacity traces',
      (c) =>
        scenarioOf(c).regions.some((r) =>
          [...r.capacity.values()].some((p) => p.kind === 'trace' && !p.traceName.startsWith('chaos/')),
        ),
    ],
    ['made-up capacity outages', (c) => Object.keys(c.traces).length > 0],
    ['scripted interruptions', (c) => scenarioOf(c).interruptions.length > 0],
    ['random API errors', (c) => c.faults.errorRate > 0],
    ['error storms of each service', (c) => new Set(c.faults.storms.map((s) => s.service)).size === 2],
    ['random crashes', (c) => c.faults.crashRate > 0],
    ['EC2 throttling switched off', (c) => scenarioOf(c).faults.throttle === false],
    [
      'a whole-region run queued behind another',
      (c) => c.queuedRuns.some((o) => o.secondGroup === undefined),
    ],
    [
      'a launch-event run queued behind a whole-region run',
      (c) => c.queuedRuns.some((o) => o.secondGroup !== undefined),
    ],
    [
      'a run queued behind one started just before a schedule boundary',
      (c) => {
        const period = scenarioOf(c).scheduleMinutes * 60_000
        const periodOf = (ms: number) => Math.floor((ms - Date.parse(CHAOS_START)) / period)
        return c.queuedRuns.some((o) => o.delayMs <= 100 && periodOf(o.atMs) !== periodOf(o.atMs + o.delayMs))
      },
    ],
    ['duplicated events', (c) => c.events.duplicateRate > 0],
    ['late (reordered) events', (c) => c.events.delayRate > 0],
    [
      'the owner protecting a member from scale-in',
      (c) => c.owner.some((o) => o.kind === 'protect-from-scale-in'),
    ],
    [
      'the owner protecting a member from termination',
      (c) => c.owner.some((o) => o.kind === 'protect-from-termination'),
    ],
    ['the owner opting a group out', (c) => c.owner.some((o) => o.kind === 'opt-out')],
    ['the owner opting a group in', (c) => c.owner.some((o) => o.kind === 'opt-in')],
    [
      'a forged interruption-warned tag, long past',
      (c) => c.owner.some((o) => o.kind === 'forge-warned-old'),
    ],
    ['a forged interruption-warned tag, fresh', (c) => c.owner.some((o) => o.kind === 'forge-warned-fresh')],
    [
      'an EC2 that writes no launch-template tag on a group’s launches',
      (c) => c.owner.some((o) => o.kind === 'untagged-launches'),
    ],
    ['a swap record planted without a MAC', (c) => c.owner.some((o) => o.kind === 'forge-swap-unsigned')],
    ['a swap record with another group’s MAC', (c) => c.owner.some((o) => o.kind === 'forge-swap-copied')],
    [
      'a swap record with a MAC of a key not the account’s',
      (c) => c.owner.some((o) => o.kind === 'forge-swap-foreign-key'),
    ],
    ['a swap record re-planted past its life', (c) => c.owner.some((o) => o.kind === 'replant-expired-swap')],
    ['the owner raising MaxSize alone', (c) => c.owner.some((o) => o.kind === 'raise-max-size')],
    ['the owner lowering MaxSize alone', (c) => c.owner.some((o) => o.kind === 'lower-max-size')],
    [
      'a full group of more than 20 members replacing all at once (swaps of more than 20 pairs)',
      (_, i) =>
        (scenarios[i]?.regions ?? []).some((r) =>
          r.groups.some(
            (g) =>
              g.desired > 20 &&
              g.desired === g.max &&
              g.tags.autospotting_max_replacements_in_flight === '100%' &&
              g.tags['spot-enabled'] === 'true',
          ),
        ),
    ],
    [
      'a later AttachInstances of a large group refused',
      (c) =>
        groupsOf(c).some((g) => g.desired > 20) &&
        (c.faults.refusals ?? []).some(
          (r) => r.operation === 'autoscaling:AttachInstances' && r.group === 'g1' && r.occurrence > 1,
        ),
    ],
  ])('covers %s', (_, predicate) => {
    expect(anyCase(predicate)).toBe(true)
  })
})
