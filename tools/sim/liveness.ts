/**
 * The eighth invariant, `stalled-on-demand`: no on-demand member above its group's on-demand minimum goes
 * more than 3 schedule periods plus the grace period without either progress or a reason that the
 * simulator confirms true at that tick, from its own state (not from what the engine observed):
 * - progress (`launching`, `replacement-warming-up`, `swapping`, `swap-open`) only while a spot instance
 *   spotswap launched for it is alive; `retiring` while it is still in the group;
 * - `protected-from-scale-in` / `ecs-tasks-running` / `api-termination-protection` only while it is protected;
 * - `spot-capacity-backoff` / `replacement-did-not-serve` only before the back-off's end;
 * - `replacement-terminated` only once a spot instance spotswap launched for it is gone;
 * - `no-compatible-spot-type` only when the engine's own filters, run on the market's true prices in its
 *   zone at that moment, leave no candidate;
 * - `on-demand-minimum` only for as many members as the group's minimum (protected members count in it);
 * - `in-flight-budget` only while a replacement of the group is in flight;
 * - `scheduled-replacement-open` only while the group carries a replacement-ahead marker;
 * - `unverified-launch` only while a launch spotswap made for it that provenance cannot verify is alive
 *   outside any group (launch-bound-invariant.ts);
 * - `unknown-instance-type` / `missing-on-demand-price` / `no-launch-template` only when the catalogue,
 *   the market or the group says so;
 * - `group-skipped`, `protection-unread` and `commitment-unreadable` (a read left for the next run) are taken as given (the engine's
 *   own tests check them), and while the region's last run failed for AWS's reasons (an injected error,
 *   a crash) the last reasons stand;
 * - `unexplained` never: flagged at the first tick it is said, whatever the group's minimum.
 * Checked at every schedule tick, after the tick's replacer run, for the managed groups of the regions
 * spotswap covers (REGIONS); never in a dry run, which replaces nothing by design.
 */

import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import { isRegionCovered } from '../../lambdas/core/config/managed.ts'
import {
  TAG_LAUNCHED_FOR_GROUP,
  TAG_MAINTENANCE,
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_REPLACING_INSTANCE,
} from '../../lambdas/core/constants.ts'
import { latestSpotPrices } from '../../lambdas/core/plan/prices.ts'
import type { OnDemandStatus } from '../../lambdas/core/plan/reasons.ts'
import { selectCandidates } from '../../lambdas/core/plan/selection.ts'
import { coveredByCommitment } from './commitment-liveness.ts'
import { PROGRESS_PERIODS } from './constants.ts'
import { effectiveConfig, groupState } from './group-state.ts'
import type { Violation } from './invariant-ledger.ts'
import { unverifiableLaunchAlive } from './launch-bound-invariant.ts'
import type { SimGroup, SimInstance, SimRegion } from './state.ts'
import type { World } from './world.ts'

const LINUX = 'Linux/UNIX'

interface Reported {
  readonly atMs: number
  readonly statuses: ReadonlyMap<string, OnDemandStatus>
}

const alive = (instance: SimInstance | undefined): boolean =>
  instance !== undefined && (instance.state === 'pending' || instance.state === 'running')

export class LivenessWatch {
  /** region/group → the statuses the last replacer run that planned the group gave. */
  private readonly reported = new Map<string, Reported>()
  /** region/group/instance → when it last had progress or a confirmed reason. */
  private readonly lastGood = new Map<string, number>()
  private readonly flagged = new Set<string>()

  constructor(
    private readonly world: World,
    private readonly config: GlobalConfig,
  ) {}

  /** What a replacer run planned for a group. */
  report(region: string, group: string, statuses: readonly OnDemandStatus[]): void {
    this.reported.set(`${region}/${group}`, {
      atMs: this.world.clock.now,
      statuses: new Map(statuses.map((s) => [s.instanceId, s])),
    })
  }

  /** The statuses last reported for a group. */
  statusesOf(region: string, group: string): readonly OnDemandStatus[] {
    return [...(this.reported.get(`${region}/${group}`)?.statuses.values() ?? [])]
  }

  /** At a schedule tick: every on-demand member above the minimum had progress or a true reason lately. */
  check(failedRegions: ReadonlySet<string>): Violation[] {
    const violations: Violation[] = []
    // A dry run only says what it would do: nothing is replaced, by design.
    if (this.config.dryRun) return violations
    const now = this.world.clock.now
    const periodMs = this.config.scheduleMinutes * 60_000
    for (const region of this.world.regions.values()) {
      // Groups of a region outside REGIONS are not spotswap's to replace.
      if (!isRegionCovered(region.name, this.config)) continue
      for (const group of region.groups.values()) {
        const state = groupState(this.config, region, group)
        if (!state.managed) {
          // Not spotswap's while unmanaged: its clock starts again when the owner opts it back in.
          for (const id of group.members.keys()) this.lastGood.delete(`${region.name}/${group.name}/${id}`)
          continue
        }
        const onDemand = [...group.members].filter(
          ([id, m]) =>
            m.lifecycleState === 'InService' && region.instances.get(id)?.lifecycle === 'on-demand',
        )
        const key = `${region.name}/${group.name}`
        const reported = this.reported.get(key)
        const above = onDemand.length > state.requiredOnDemand
        const grace =
          effectiveConfig(this.config, group).gracePeriodSeconds ?? group.healthCheckGracePeriodSeconds
        const limitMs = PROGRESS_PERIODS * periodMs + grace * 1000
        for (const [id] of onDemand) {
          const memberKey = `${key}/${id}`
          const status = reported?.statuses.get(id)
          const good =
            !above ||
            failedRegions.has(region.name) ||
            (status !== undefined && this.confirms(region, group, id, status, reported?.statuses))
          // The planner left it alone and cannot say why: a bug whatever the group's minimum, flagged at once.
          if (
            status?.code === 'unexplained' &&
            !failedRegions.has(region.name) &&
            !this.flagged.has(memberKey)
          ) {
            this.flagged.add(memberKey)
            violations.push({
              at: new Date(now).toISOString(),
              group: group.name,
              invariant: 'stalled-on-demand',
              detail: `${id} (on-demand) is unexplained: ${status.detail}`,
            })
            continue
          }
          const since = this.lastGood.get(memberKey)
          if (good || since === undefined) this.lastGood.set(memberKey, now)
          else if (now - since > limitMs && !this.flagged.has(memberKey)) {
            this.flagged.add(memberKey)
            violations.push({
              at: new Date(now).toISOString(),
              group: group.name,
              invariant: 'stalled-on-demand',
              detail: `${id} (on-demand, ${onDemand.length} of a minimum ${state.requiredOnDemand}) had neither progress nor a true reason for ${Math.round((now - since) / 60_000)} min; last said: ${status === undefined ? 'nothing' : `${status.code} (${status.detail})`}`,
            })
          }
        }
      }
    }
    return violations
  }

  private confirms(
    region: SimRegion,
    group: SimGroup,
    id: string,
    status: OnDemandStatus,
    all: ReadonlyMap<string, OnDemandStatus> | undefined,
  ): boolean {
    const instance = region.instances.get(id)
    const member = group.members.get(id)
    const now = this.world.clock.now
    const replacementAlive = (): boolean =>
      [...region.instances.values()].some((i) => alive(i) && i.tags[TAG_REPLACING_INSTANCE] === id)
    switch (status.code) {
      case 'launching':
      case 'replacement-warming-up':
      case 'swapping':
      case 'swap-open':
        return replacementAlive()
      case 'retiring':
        return true
      case 'replacement-terminated':
        return [...region.instances.values()].some(
          (i) => !alive(i) && i.origin === 'spotswap' && i.tags[TAG_REPLACING_INSTANCE] === id,
        )
      case 'protected-from-scale-in':
      // ECS's protection is scale-in protection too; which capacity provider set it, the engine read.
      case 'ecs-tasks-running':
      case 'ecs-standalone-task':
      case 'ecs-tasks-unreadable':
        return member?.protectedFromScaleIn === true
      case 'api-termination-protection':
        return instance?.terminationProtected === true
      case 'spot-capacity-backoff':
      case 'replacement-did-not-serve':
        return Date.parse(instance?.tags[TAG_NO_SPOT_CAPACITY_UNTIL] ?? '') > now
      case 'no-compatible-spot-type':
        return instance !== undefined && this.noCandidate(region, group, instance)
      case 'on-demand-minimum': {
        const state = groupState(this.config, region, group)
        const keptIds = new Set(
          [...(all?.values() ?? [])].filter((s) => s.code === 'on-demand-minimum').map((s) => s.instanceId),
        )
        // A protected member counts in the minimum once, said kept or not (chaos seed 161).
        const protectedElsewhere = state.protectedOnDemandIds.filter((i) => !keptIds.has(i)).length
        return keptIds.size + protectedElsewhere <= state.requiredOnDemand
      }
      case 'unverified-launch':
        return unverifiableLaunchAlive(region, id)
      case 'commitment-covered':
        return coveredByCommitment(region, id, now, (i) => {
          const owner = region.groupOf(i.id)
          return owner !== undefined && groupState(this.config, region, owner).managed
        })
      case 'scheduled-replacement-open':
        return group.tags[TAG_MAINTENANCE] !== undefined
      case 'in-flight-budget':
        return [...region.instances.values()].some(
          (i) => alive(i) && i.origin === 'spotswap' && i.tags[TAG_LAUNCHED_FOR_GROUP] === group.name,
        )
      case 'unknown-instance-type':
        return instance !== undefined && !this.world.catalog.has(instance.type)
      case 'missing-on-demand-price':
        return (
          instance !== undefined &&
          region.market.onDemandPrice(instance.type, instance.platform) === undefined
        )
      case 'no-launch-template':
        return group.launchTemplate === undefined && group.launchConfigurationName === undefined
      case 'group-skipped':
      case 'protection-unread':
      case 'protection-unreadable':
      case 'commitment-unreadable':
      case 'no-subnet-in-group':
        return true
      case 'unexplained':
        return false
    }
  }

  /** The engine's filters on the market's true prices in the member's zone leave no candidate. */
  private noCandidate(region: SimRegion, group: SimGroup, instance: SimInstance): boolean {
    const original = this.world.catalog.get(instance.type)
    if (original === undefined) return true
    const prices = latestSpotPrices(region.market.priceRows(LINUX, this.world.clock.now))
    const selection = selectCandidates(this.world.catalog, {
      original,
      zone: instance.zone,
      config: effectiveConfig(this.config, group),
      spotPrices: prices,
      originalOnDemandPrice: region.market.onDemandPrice(instance.type, instance.platform),
    })
    return selection.ranked.length === 0
  }
}
