/**
 * A region's on-demand usage as the billing module reads it: every running on-demand instance of the
 * region, managed or not (a region-wide read cached with the commitments), and this run's own members as
 * it observed them now. Unmanaged usage takes the commitments first (apply.ts Order); the managed members
 * of every lane follow, newest first, so the commitments cover the members the planner replaces last (it
 * replaces the oldest first). Every lane orders the same region-wide list the same way, so the lanes
 * share one assignment and each keeps only its own covered members: together they keep at most what the
 * commitments cover.
 */

import { productDescriptionOf } from '../platform.ts'
import type { Group, Instance, OnDemandPrices } from '../types.ts'
import { type MemberCoverage, memberCoverage } from './coverage.ts'
import type { Commitments, RunningOnDemand, UsageLine } from './types.ts'
import { holdUntold } from './unreadable.ts'

export interface ObservedGroup {
  readonly group: Group
  /** The product description its prices are for. */
  readonly productDescription: string
}

export interface RegionUsageInput {
  readonly region: string
  /** This run's managed groups (its lane's). */
  readonly groups: readonly ObservedGroup[]
  readonly instances: ReadonlyMap<string, Instance>
  readonly onDemandPrices: ReadonlyMap<string, OnDemandPrices>
  /**
   * Every managed group of the region, all lanes' (observe.ts lists them all); undefined when the run
   * listed only some groups: then an instance of a group it did not list may be another lane's member.
   */
  readonly regionGroups?: readonly Group[] | undefined
}

interface DatedLine {
  readonly line: UsageLine
  readonly launchTimeMs: number
}

const newestFirst = (a: DatedLine, b: DatedLine): number =>
  b.launchTimeMs - a.launchTimeMs || (a.line.id < b.line.id ? -1 : a.line.id > b.line.id ? 1 : 0)

const HOUR_SECONDS = 3600

/**
 * Member states whose instance runs, billed, for a while: in service, in standby, or held by a lifecycle
 * hook (Pending:Wait and Terminating:Wait last up to the hook's timeout, an hour by default:
 * https://docs.aws.amazon.com/autoscaling/ec2/userguide/lifecycle-hooks-overview.html). Reserved
 * Instances apply to any running instance that matches
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-reserved-instances.html), so these take
 * commitments as members in service do; only those in service may be kept or replaced.
 */
const USES_COMMITMENTS: ReadonlySet<string> = new Set([
  'InService',
  'Standby',
  'Pending:Wait',
  'Pending:Proceed',
  'Terminating:Wait',
])

/**
 * Each on-demand member of this run that uses commitments (USES_COMMITMENTS), with its on-demand rate. A member without an on-demand
 * price is left out: it is not replaced either (missing-on-demand-price).
 */
const eachOwnMember = (input: RegionUsageInput, visit: (instance: Instance, rate: number) => void): void => {
  for (const { group, productDescription } of input.groups) {
    const prices = input.onDemandPrices.get(productDescription)?.prices
    for (const member of group.members) {
      const instance = input.instances.get(member.instanceId)
      if (!USES_COMMITMENTS.has(member.lifecycleState) || instance?.lifecycle !== 'on-demand') continue
      const rate = prices?.get(instance.type)
      if (rate !== undefined) visit(instance, rate)
    }
  }
}

/**
 * This run's on-demand members that use commitments, one hour each. Tenancy is taken as default: Auto Scaling
 * groups launch shared-tenancy instances unless their template asks otherwise, which the run does not read.
 */
const ownMembers = (input: RegionUsageInput): DatedLine[] => {
  const lines: DatedLine[] = []
  eachOwnMember(input, (instance, rate) =>
    lines.push({
      launchTimeMs: instance.launchTime.getTime(),
      line: {
        id: instance.id,
        type: instance.type,
        zone: instance.zone,
        region: input.region,
        platform: productDescriptionOf(instance.platform),
        tenancy: 'default',
        managed: true,
        onDemandRateUsd: rate,
        seconds: HOUR_SECONDS,
      },
    }),
  )
  return lines
}

/**
 * The instance type of each of managedUsage's lines, unordered, without building the lines: what the
 * commitments read needs (Savings Plan rates), at a fraction of the cost on a large region.
 */
export const managedTypes = (input: RegionUsageInput): string[] => {
  const types: string[] = []
  eachOwnMember(input, (instance) => types.push(instance.type))
  return types
}

/** The managed on-demand members of this run that use commitments, newest first (it replaces only those in service). */
export const managedUsage = (input: RegionUsageInput): UsageLine[] =>
  ownMembers(input)
    .sort(newestFirst)
    .map((d) => d.line)

type Role = 'managed' | 'unmanaged' | 'gone'

/**
 * What a listed instance is to the region's managed groups: an in-service member of one (any lane's), an
 * instance no managed group holds, or one that left a managed group since the listing was read (replaced,
 * detached: counted neither way, as the member it was is no longer there to keep) unless read this run
 * and running (detached: it uses commitments as any instance does; listing-doubts.ts). When the run did not
 * list every managed group, an instance of a group it did not list is taken as a managed member: keeping
 * a member for it loses some savings until the next full run; taking it as unmanaged could replace a
 * member whose commitment then goes unused, which no later run undoes.
 */
const roleIn = (input: RegionUsageInput): ((instance: RunningOnDemand) => Role) => {
  const known = input.regionGroups ?? input.groups.map((g) => g.group)
  const names = new Set(known.map((g) => g.name))
  const states = new Map<string, string>()
  for (const group of known)
    for (const member of group.members) states.set(member.instanceId, member.lifecycleState)
  const unlisted: Role = input.regionGroups === undefined ? 'managed' : 'unmanaged'
  return (instance) => {
    const state = states.get(instance.id)
    if (state !== undefined) return USES_COMMITMENTS.has(state) ? 'managed' : 'gone'
    if (instance.group === undefined) return 'unmanaged'
    if (!names.has(instance.group)) return unlisted
    return instance.readNow === true ? 'unmanaged' : 'gone'
  }
}

/**
 * The region's usage lines: unmanaged first, then managed newest first; ties broken by id, so every lane
 * orders the same instances alike. A listed instance with no known price (a platform no group of this run
 * runs) is priced 0: Reserved Instances still match it, Savings Plans, which rank by savings, pass it over.
 */
export const regionUsage = (
  input: RegionUsageInput,
  running: readonly RunningOnDemand[] = [],
): UsageLine[] => {
  const own = ownMembers(input)
  const seen = new Set(own.map((d) => d.line.id))
  const role = roleIn(input)
  const managed = [...own]
  const unmanaged: DatedLine[] = []
  for (const instance of running) {
    if (seen.has(instance.id)) continue
    const kind = role(instance)
    if (kind === 'gone') continue
    const line: UsageLine = {
      id: instance.id,
      type: instance.type,
      zone: instance.zone,
      region: input.region,
      platform: instance.platform,
      tenancy: instance.tenancy,
      managed: kind === 'managed',
      onDemandRateUsd: input.onDemandPrices.get(instance.platform)?.prices.get(instance.type) ?? 0,
      seconds: HOUR_SECONDS,
    }
    ;(kind === 'managed' ? managed : unmanaged).push({ line, launchTimeMs: instance.launchTimeMs })
  }
  return [...unmanaged.sort(newestFirst), ...managed.sort(newestFirst)].map((d) => d.line)
}

export const holdsNone = (commitments: Commitments): boolean =>
  commitments.reservedInstances.length === 0 &&
  commitments.savingsPlans.length === 0 &&
  commitments.capacityReservations.length === 0 &&
  (commitments.upcomingReservations ?? []).length === 0

/**
 * The managed members the region's commitments cover, every lane's (a run looks up only its own), and those
 * held because the Savings Plans could not be read; undefined when there are no commitments.
 */
export const regionCoverage = (
  usage: readonly UsageLine[],
  commitments: Commitments,
): ReadonlyMap<string, MemberCoverage> | undefined => {
  const read = holdsNone(commitments) ? undefined : memberCoverage(usage, commitments)
  const { savingsPlansUnreadable } = commitments
  return savingsPlansUnreadable === undefined ? read : holdUntold(read, usage, savingsPlansUnreadable)
}
