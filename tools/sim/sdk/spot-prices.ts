/**
 * DescribeSpotPriceHistory's rows: the price in effect per pool (market.ts). Every replacer run reads
 * every pool of its region, and prices change only at their steps, so the rows are made once per set of
 * steps in effect (market.ts currentSteps) and answered again until a price changes: the per-run cost is
 * the adapter's own conversion.
 */
import type { _InstanceType, SpotPrice as Ec2SpotPrice, RIProductDescription } from '@aws-sdk/client-ec2'
import { LINUX } from '../../../lambdas/core/platform.ts'
import type { PoolStep, PriceStep, SpotMarket } from '../market.ts'

/** The rows of one set of steps, and which of them are for pools whose first step has not begun. */
interface StepRows {
  readonly rows: readonly Ec2SpotPrice[]
  readonly notBegun: readonly number[]
}

const rowsOfSteps = new WeakMap<readonly PoolStep[], StepRows>()

/** SpotPrice is a decimal string in EC2's answer; String(number) reads back to the same number. */
const row = (type: string, zone: string, step: PriceStep, timestampMs: number): Ec2SpotPrice => ({
  InstanceType: type as _InstanceType,
  AvailabilityZone: zone,
  ProductDescription: LINUX as RIProductDescription,
  SpotPrice: String(step.priceUsd),
  Timestamp: new Date(timestampMs),
})

/**
 * The rows of `steps` at `atMs`. Whether a pool's first step has begun holds as long as the steps do
 * (currentSteps answers anew when one begins); before it, the first price applies too, stamped with the
 * time asked about, so those few rows are made for each request.
 */
const rowsAt = (steps: readonly PoolStep[], atMs: number): readonly Ec2SpotPrice[] => {
  let made = rowsOfSteps.get(steps)
  if (made === undefined) {
    const notBegun: number[] = []
    const rows = steps.map(({ type, zone, step }, index) => {
      if (step.at > atMs) notBegun.push(index)
      return row(type, zone, step, step.at)
    })
    made = { rows, notBegun }
    rowsOfSteps.set(steps, made)
  }
  if (made.notBegun.length === 0) return made.rows
  const rows = made.rows.slice()
  for (const index of made.notBegun) {
    const { type, zone, step } = steps[index] as PoolStep
    rows[index] = row(type, zone, step, atMs)
  }
  return rows
}

/** The rows for the product descriptions asked about, read-only: the same rows answer later requests. */
export const spotPriceRows = (
  market: SpotMarket,
  productDescriptions: readonly string[],
  atMs: number,
): readonly Ec2SpotPrice[] => {
  const answers = productDescriptions.map((description) =>
    rowsAt(market.currentStepsFor(description, atMs), atMs),
  )
  return answers.length === 1 ? (answers[0] as readonly Ec2SpotPrice[]) : answers.flat()
}
