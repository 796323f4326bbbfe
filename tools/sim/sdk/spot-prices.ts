/**
 * DescribeSpotPriceHistory's rows: the price in effect per pool (market.ts). Every replacer run reads
 * every pool of its region, and a pool's price changes only at its steps, so each step's row is made once
 * and answered again until the next step: the per-run cost is the adapter's own conversion.
 */
import type { _InstanceType, SpotPrice as Ec2SpotPrice, RIProductDescription } from '@aws-sdk/client-ec2'
import { LINUX } from '../../../lambdas/core/platform.ts'
import type { PriceStep, SpotMarket } from '../market.ts'

const rowsOfSteps = new WeakMap<PriceStep, Ec2SpotPrice>()

/** SpotPrice is a decimal string in EC2's answer; String(number) reads back to the same number. */
const row = (type: string, zone: string, step: PriceStep, timestampMs: number): Ec2SpotPrice => ({
  InstanceType: type as _InstanceType,
  AvailabilityZone: zone,
  ProductDescription: LINUX as RIProductDescription,
  SpotPrice: String(step.priceUsd),
  Timestamp: new Date(timestampMs),
})

export const spotPriceRows = (
  market: SpotMarket,
  productDescriptions: readonly string[],
  atMs: number,
): Ec2SpotPrice[] => {
  const rows: Ec2SpotPrice[] = []
  for (const description of productDescriptions)
    market.forEachCurrentStep(description, atMs, (type, zone, step) => {
      // A pool's first price also applies before its first step, stamped with the time asked about.
      if (step.at > atMs) return void rows.push(row(type, zone, step, atMs))
      let cached = rowsOfSteps.get(step)
      if (cached === undefined) {
        cached = row(type, zone, step, step.at)
        rowsOfSteps.set(step, cached)
      }
      rows.push(cached)
    })
  return rows
}
