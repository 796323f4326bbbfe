/** The invocations the replacer accepts, as one registry (see core/events.ts). */
import {
  createEventRegistry,
  type EventDefinition,
  instanceLaunchSuccessful,
  REGION_NAME,
  scheduledEvent,
} from '../core/events.ts'

export const FANOUT_SOURCE = 'spotswap'
export const FANOUT_DETAIL_TYPE = 'Region Work'

export interface RegionWorkDetail {
  readonly region: string
  /** Only this group (a launch event routed through the queue); undefined = the whole region. */
  readonly group: string | undefined
}

/** A fan-out message: one region's run, enqueued by the scheduled invocation and processed by a worker. */
export const regionWork: EventDefinition<'region-work', RegionWorkDetail> = {
  kind: 'region-work',
  source: FANOUT_SOURCE,
  detailType: FANOUT_DETAIL_TYPE,
  parseDetail: (detail) => {
    if (typeof detail.region !== 'string' || !REGION_NAME.test(detail.region)) {
      return { ok: false, problem: 'detail.region is not a region name' }
    }
    if (detail.group !== undefined && (typeof detail.group !== 'string' || detail.group.length === 0)) {
      return { ok: false, problem: 'detail.group is not a group name' }
    }
    return { ok: true, detail: { region: detail.region, group: detail.group } }
  },
}

export const replacerEvents = createEventRegistry([
  scheduledEvent,
  instanceLaunchSuccessful,
  regionWork,
] as const)

/** The EventBridge-shaped body of a fan-out message, so workers parse it like any other event. */
export const regionWorkEvent = (region: string, now: Date, group?: string): Record<string, unknown> => ({
  source: FANOUT_SOURCE,
  'detail-type': FANOUT_DETAIL_TYPE,
  region,
  time: now.toISOString(),
  detail: group === undefined ? { region } : { region, group },
})
