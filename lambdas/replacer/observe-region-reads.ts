/**
 * The region-level reads only some groups need: each platform's prices, the zones of subnets no instance
 * tells. A read that fails (after the SDK's retries) is an observation, not an error: the groups needing it
 * are held back (core/region/region-reads.ts), the others go on.
 */
import { latestSpotPrices } from '../core/plan/prices.ts'
import type { CloudPort } from '../core/port.ts'
import type { Instance, OnDemandPrices, SpotPrice, SpotPriceBook } from '../core/types.ts'
import { describeError } from './outcome.ts'

export interface PriceReads {
  readonly spotPrices: Map<string, SpotPriceBook>
  readonly onDemandPrices: Map<string, OnDemandPrices>
  /** Product description → the error its prices' read ended in. */
  readonly unreadable: Map<string, string>
}

/** One platform's prices: its on-demand ones whenever read (the group's figures), its spot ones with them. */
const keep = (
  into: PriceReads,
  description: string,
  spot: PromiseSettledResult<readonly SpotPrice[]> | undefined,
  onDemand: PromiseSettledResult<OnDemandPrices> | undefined,
): void => {
  if (onDemand?.status === 'fulfilled') into.onDemandPrices.set(description, onDemand.value)
  if (spot?.status === 'rejected') into.unreadable.set(description, describeError(spot.reason))
  else if (onDemand?.status === 'rejected') into.unreadable.set(description, describeError(onDemand.reason))
  else if (spot?.status === 'fulfilled') into.spotPrices.set(description, latestSpotPrices(spot.value))
}

/**
 * Spot and on-demand prices of each product description, one platform's failure apart from the others'.
 * Every read is asked at once, spot prices first, and kept in the descriptions' order.
 */
export const readPrices = async (
  cloud: CloudPort,
  descriptions: readonly string[],
  now: Date,
): Promise<PriceReads> => {
  const [spot, onDemand] = await Promise.all([
    Promise.allSettled(descriptions.map((d) => cloud.describeSpotPrices(d, now))),
    Promise.allSettled(descriptions.map((d) => cloud.onDemandPrices(d))),
  ])
  const reads: PriceReads = { spotPrices: new Map(), onDemandPrices: new Map(), unreadable: new Map() }
  for (const [i, description] of descriptions.entries()) keep(reads, description, spot[i], onDemand[i])
  return reads
}

/** What a read answered, or `none` and the error it ended in. */
const answerOrError = async <T>(
  read: () => Promise<T>,
  none: T,
): Promise<{ readonly answer: T; readonly error?: string }> => {
  try {
    return { answer: await read() }
  } catch (error) {
    return { answer: none, error: describeError(error) }
  }
}

/** The subnets' zones, or the error their read ended in (one DescribeSubnets for them all). */
export const readSubnetZones = async (
  cloud: CloudPort,
  subnetIds: readonly string[],
): Promise<{ readonly zones: Map<string, string>; readonly error?: string }> => {
  if (subnetIds.length === 0) return { zones: new Map() }
  const { answer, error } = await answerOrError(() => cloud.subnetZones(subnetIds), new Map())
  return error === undefined ? { zones: answer } : { zones: answer, error }
}

/** The partners launches name, terminated ones too (what they recorded), or the error their read ended in. */
export const readPartners = (
  cloud: CloudPort,
  ids: readonly string[],
): Promise<{ readonly answer: readonly Instance[]; readonly error?: string }> =>
  ids.length === 0
    ? Promise.resolve({ answer: [] })
    : answerOrError(() => cloud.describeInstances(ids, { includeTerminated: true }), [])
