/**
 * Reads a region run makes once for several groups, that only some of its groups need: the spot prices of
 * one platform (product description), the zones of subnets no instance tells. One that fails (after the
 * SDK's retries) holds back only the groups that need it, never the region's run: they start no
 * replacement or swap this run, and what needs no such data goes on (an open swap finishes, a member that
 * never served leaves, launches no longer needed are cleaned up). The next run reads again.
 */
import { TAG_LAUNCHED_FOR_GROUP, TAG_REPLACING_INSTANCE } from '../constants.ts'
import type { GroupSkip, GroupSkipCode } from '../plan/reasons.ts'
import type { Instance } from '../types.ts'
import type { UnreadableDetail } from './details-needed.ts'

/** A failed region-level read, as the group needing it sees it. */
export type FailedRegionRead = UnreadableDetail & { readonly read: 'spot-prices' | 'subnets' }

const SKIP_CODE: Readonly<Record<FailedRegionRead['read'], GroupSkipCode>> = {
  'spot-prices': 'spot-prices-unreadable',
  subnets: 'subnets-unreadable',
}

/** What the group cannot judge without the read, as the skip's detail says it. */
const MISSING: Readonly<Record<FailedRegionRead['read'], string>> = {
  'spot-prices': 'no spot price to choose a replacement by',
  subnets: 'where a replacement may go is not known',
}

/** Why the group starts nothing this run: the first failed read it needs; undefined when none failed. */
export const regionReadSkip = (failed: readonly FailedRegionRead[] | undefined): GroupSkip | undefined => {
  const first = failed?.[0]
  if (first === undefined) return undefined
  return {
    code: SKIP_CODE[first.read],
    detail: `${first.subject}: ${first.error}; ${MISSING[first.read]}; the next run reads again`,
  }
}

/** What failed of a region run's reads: prices by product description, and the subnets' read, if it did. */
export interface FailedReads {
  readonly prices: ReadonlyMap<string, string>
  readonly subnets?: string | undefined
}

/**
 * The failed reads one group needs: its platform's prices, and the subnets' read when it waits on some
 * subnets' zones (`subnets`, those of its subnets no instance tells).
 */
export const failedReadsOf = (
  group: string,
  productDescription: string,
  subnets: readonly string[],
  failed: FailedReads,
): FailedRegionRead[] => {
  const reads: FailedRegionRead[] = []
  const pricesError = failed.prices.get(productDescription)
  if (pricesError !== undefined)
    reads.push({ read: 'spot-prices', group, subject: productDescription, error: pricesError })
  if (failed.subnets !== undefined && subnets.length > 0)
    reads.push({ read: 'subnets', group, subject: subnets.join(', '), error: failed.subnets })
  return reads
}

/**
 * The groups whose launches name a partner that could not be read, with why they wait. What a partner
 * recorded decides whether its launch is spotswap's (core/group/provenance.ts), and an unseen partner
 * would read as one gone from EC2's view: those groups wait as for a marker that cannot be verified (their
 * open swap held, nothing started, their launches left alone). The stray cleanup reads partners itself.
 */
export const heldForUnreadPartners = (
  launched: readonly Instance[],
  unread: ReadonlySet<string>,
  error: string,
): Map<string, string> => {
  const groups = new Map<string, string>()
  const why = `the partners its launches name could not be read (${error}): what they recorded is unknown; the next run reads again`
  for (const instance of launched)
    if (unread.has(instance.tags[TAG_REPLACING_INSTANCE] ?? ''))
      groups.set(instance.tags[TAG_LAUNCHED_FOR_GROUP] ?? '', why)
  return groups
}
