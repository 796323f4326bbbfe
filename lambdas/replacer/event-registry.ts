/** The invocations the replacer accepts, as one registry (see core/events/registry.ts). */

import { REGION_LANES } from '../core/constants.ts'
import { groupRunRequest, instanceLaunchSuccessful, scheduledEvent } from '../core/events/definitions.ts'
import { createEventRegistry, type EventDefinition, REGION_NAME } from '../core/events/registry.ts'
import { retryRequest } from '../core/events/retry-request.ts'
import { isLaneIndex } from '../core/region/lanes.ts'

export const FANOUT_SOURCE = 'spotswap'
export const FANOUT_DETAIL_TYPE = 'Region Work'

export interface RegionWorkDetail {
  readonly region: string
  /** Only these groups (a launch event, or a chunk of a large region); undefined = the whole region. */
  readonly groups: readonly string[] | undefined
  /** The lane of the region it runs (core/region/lanes.ts); absent in messages sent before lanes: lane 0. */
  readonly lane: number | undefined
  /** Asks for `groups` to revert to on-demand (`spotswap revert`, core/revert/). */
  readonly revert?: true
  /** Another run of a run that failed before it acted (core/events/retry-request.ts): it asks for none. */
  readonly retry?: true
}

const isGroupName = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 255

/** A fan-out message: one region's run, enqueued by the scheduled invocation and processed by a worker. */
export const regionWork: EventDefinition<'region-work', RegionWorkDetail> = {
  kind: 'region-work',
  source: FANOUT_SOURCE,
  detailType: FANOUT_DETAIL_TYPE,
  parseDetail: (detail) => {
    if (typeof detail.region !== 'string' || !REGION_NAME.test(detail.region)) {
      return { ok: false, problem: 'detail.region is not a region name' }
    }
    const { groups } = detail
    if (
      groups !== undefined &&
      (!Array.isArray(groups) || groups.length === 0 || !groups.every(isGroupName))
    ) {
      return { ok: false, problem: 'detail.groups is not a non-empty list of group names' }
    }
    const { lane } = detail
    if (lane !== undefined && !isLaneIndex(lane, REGION_LANES)) {
      return { ok: false, problem: `detail.lane is not a lane from 0 to ${REGION_LANES - 1}` }
    }
    if (detail.revert !== undefined && (detail.revert !== true || groups === undefined)) {
      return { ok: false, problem: 'detail.revert is not true with a list of groups' }
    }
    if (detail.retry !== undefined && detail.retry !== true)
      return { ok: false, problem: 'detail.retry is not true' }
    return {
      ok: true,
      detail: {
        region: detail.region,
        groups,
        lane,
        ...(detail.revert ? { revert: true } : {}),
        ...(detail.retry ? { retry: true } : {}),
      },
    }
  },
}

export const replacerEvents = createEventRegistry([
  scheduledEvent,
  instanceLaunchSuccessful,
  groupRunRequest,
  regionWork,
  retryRequest,
] as const)

/** The EventBridge-shaped body of a fan-out message, so workers parse it like any other event. */
export const regionWorkEvent = (
  region: string,
  now: Date,
  groups?: readonly string[],
  lane?: number,
  retry = false,
): Record<string, unknown> => ({
  source: FANOUT_SOURCE,
  'detail-type': FANOUT_DETAIL_TYPE,
  region,
  time: now.toISOString(),
  detail: {
    region,
    ...(groups === undefined ? {} : { groups }),
    ...(lane === undefined ? {} : { lane }),
    ...(retry ? { retry: true } : {}),
  },
})

/** A run request asking for one group to revert to on-demand, delivered in the group's own lane. */
export const revertRequestEvent = (
  region: string,
  now: Date,
  group: string,
  lane: number,
): Record<string, unknown> => {
  const event = regionWorkEvent(region, now, [group], lane)
  return { ...event, detail: { ...(event.detail as Record<string, unknown>), revert: true } }
}
