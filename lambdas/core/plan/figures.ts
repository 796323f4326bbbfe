/** A group's cost and savings right now, from its members' types and the current prices. */

import { TAG_REPLACED_TYPE } from '../constants.ts'
import type { GroupMember, Instance, SpotPriceBook } from '../types.ts'
import { spotPricesIn } from './prices.ts'
import type { GroupFigures } from './reasons.ts'

interface FigureInput {
  readonly instances: ReadonlyMap<string, Instance>
  readonly spotPrices: SpotPriceBook
  readonly onDemandPrices: ReadonlyMap<string, number>
}

/**
 * Savings per spot member = on-demand price of the type it replaced (recorded at launch; its own type for
 * instances launched by AutoSpotting) − its current spot price. Members with an unknown price count as 0.
 */
export const groupFigures = (
  input: FigureInput,
  inService: readonly GroupMember[],
  minOnDemand: number,
): GroupFigures => {
  let spot = 0
  let onDemand = 0
  let hourlySavingsUsd = 0
  let hourlyCostUsd = 0
  for (const member of inService) {
    const instance = input.instances.get(member.instanceId)
    if (!instance) continue
    const ownOnDemandPrice = input.onDemandPrices.get(instance.type)
    if (instance.lifecycle === 'on-demand') {
      onDemand++
      hourlyCostUsd += ownOnDemandPrice ?? 0
      continue
    }
    spot++
    const spotPrice = spotPricesIn(input.spotPrices, instance.zone).get(instance.type)
    const replacedPrice = input.onDemandPrices.get(instance.tags[TAG_REPLACED_TYPE] ?? instance.type)
    hourlyCostUsd += spotPrice ?? ownOnDemandPrice ?? 0
    if (spotPrice !== undefined && replacedPrice !== undefined) hourlySavingsUsd += replacedPrice - spotPrice
  }
  return {
    inService: inService.length,
    spot,
    onDemand,
    minOnDemand,
    hourlySavingsUsd: round6(hourlySavingsUsd),
    hourlyCostUsd: round6(hourlyCostUsd),
  }
}

/** Prices have at most 6 decimals; sums are rounded back so reports are stable across platforms. */
const round6 = (value: number): number => Math.round(value * 1e6) / 1e6
