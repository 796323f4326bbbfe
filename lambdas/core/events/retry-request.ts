/**
 * spotswap's own request for another run of a lane (or of some of its groups), sent by a region run that
 * failed before it acted, through the run-request queue with a delay (core/region/look-again.ts
 * retryAfterFailure). The replacer passes it on to the lane's FIFO message group, marked as a retry, so
 * the run it starts never asks again.
 */
import { REGION_LANES } from '../constants.ts'
import { isLaneIndex } from '../region/lanes.ts'
import type { EventDefinition } from './registry.ts'

export interface RetryRequestDetail {
  readonly lane: number
  /** Only these groups (the failed run was asked for them); undefined = the whole lane. */
  readonly groups: readonly string[] | undefined
}

const isGroupName = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 255

export const retryRequest: EventDefinition<'retry-request', RetryRequestDetail> = {
  kind: 'retry-request',
  source: 'spotswap',
  detailType: 'Failed Run Retry Request',
  parseDetail: (detail) => {
    const { lane, groups } = detail
    if (!isLaneIndex(lane, REGION_LANES))
      return { ok: false, problem: `detail.lane is not a lane from 0 to ${REGION_LANES - 1}` }
    if (groups !== undefined && (!Array.isArray(groups) || groups.length === 0 || !groups.every(isGroupName)))
      return { ok: false, problem: 'detail.groups is not a non-empty list of group names' }
    return { ok: true, detail: { lane, groups } }
  },
}

/** The body of a retry request; `id` tells requests apart (each is one replacer run, never deduplicated). */
export const retryRequestEvent = (
  id: string,
  region: string,
  scope: RetryRequestDetail,
  now: Date,
): Record<string, unknown> => ({
  id,
  source: retryRequest.source,
  'detail-type': retryRequest.detailType,
  region,
  time: now.toISOString(),
  detail: { lane: scope.lane, ...(scope.groups === undefined ? {} : { groups: scope.groups }) },
})
