/**
 * A region's on-demand usage as the billing module reads it, from what a run observes already: the
 * managed groups' on-demand members (no new read). Members are listed newest first, so the commitments
 * cover the members the planner replaces last (it replaces the oldest first).
 */

import { productDescriptionOf } from '../platform.ts'
import type { Group, Instance, OnDemandPrices } from '../types.ts'
import { type MemberCoverage, memberCoverage } from './coverage.ts'
import type { Commitments, UsageLine } from './types.ts'

export interface ObservedGroup {
  readonly group: Group
  /** The product description its prices are for. */
  readonly productDescription: string
}

export interface RegionUsageInput {
  readonly region: string
  readonly groups: readonly ObservedGroup[]
  readonly instances: ReadonlyMap<string, Instance>
  readonly onDemandPrices: ReadonlyMap<string, OnDemandPrices>
}

const newestFirst = (a: Instance, b: Instance): number => b.launchTime.getTime() - a.launchTime.getTime()

/**
 * The managed on-demand members in service, one hour each. Tenancy is taken as default: Auto Scaling
 * groups launch shared-tenancy instances unless their template asks otherwise, which the run does not read.
 * A member without an on-demand price is left out: it is not replaced either (missing-on-demand-price).
 */
export const managedUsage = (input: RegionUsageInput): UsageLine[] => {
  const members: { readonly instance: Instance; readonly rate: number }[] = []
  for (const { group, productDescription } of input.groups) {
    const prices = input.onDemandPrices.get(productDescription)?.prices
    for (const member of group.members) {
      const instance = input.instances.get(member.instanceId)
      if (member.lifecycleState !== 'InService' || instance?.lifecycle !== 'on-demand') continue
      const rate = prices?.get(instance.type)
      if (rate !== undefined) members.push({ instance, rate })
    }
  }
  members.sort((a, b) => newestFirst(a.instance, b.instance))
  return members.map(({ instance, rate }) => ({
    id: instance.id,
    type: instance.type,
    zone: instance.zone,
    region: input.region,
    platform: productDescriptionOf(instance.platform),
    tenancy: 'default',
    managed: true,
    onDemandRateUsd: rate,
    seconds: 3600,
  }))
}

/** The managed members the region's commitments cover; undefined when there are no commitments. */
export const regionCoverage = (
  input: RegionUsageInput,
  commitments: Commitments,
  unmanaged: readonly UsageLine[] = [],
): ReadonlyMap<string, MemberCoverage> | undefined => {
  const none =
    commitments.reservedInstances.length === 0 &&
    commitments.savingsPlans.length === 0 &&
    commitments.capacityReservations.length === 0
  return none ? undefined : memberCoverage([...unmanaged, ...managedUsage(input)], commitments)
}
