/**
 * The fan-out queue's messages, each in its lane's FIFO message group (core/region/lanes.ts): a scheduled
 * run of a region is one message per lane, a run of one group goes to the group's lane, and a lane too
 * large for one invocation hands its chunks on to its own message group.
 */
import { REGION_LANES } from '../core/constants.ts'
import { allLanes, laneMessageGroupId, laneOf } from '../core/region/lanes.ts'
import type { FanoutMessage } from './deps.ts'
import { regionWorkEvent, revertRequestEvent } from './event-registry.ts'

/** SQS FIFO deduplication ids: at most 128 characters, alphanumerics and punctuation only. */
export const deduplicationId = (...parts: readonly string[]): string =>
  parts
    .join('-')
    .replace(/[^\x21-\x7e]/g, '_')
    .slice(0, 128)

/** A scheduled run of the region: one message per lane, deduplicated within the tick's `bucket`. */
export const laneMessages = (region: string, now: Date, bucket: number): FanoutMessage[] =>
  allLanes(REGION_LANES).map(({ index }) => ({
    groupId: laneMessageGroupId(region, index),
    deduplicationId: deduplicationId(region, `lane${index}`, String(bucket)),
    body: JSON.stringify(regionWorkEvent(region, now, undefined, index)),
  }))

/** A run of one group (a launch event, a run request), in the group's lane. */
export const groupMessage = (
  region: string,
  group: string,
  now: Date,
  deduplication: string,
  revert = false,
): FanoutMessage => {
  const lane = laneOf(group, REGION_LANES)
  const event = revert
    ? revertRequestEvent(region, now, group, lane)
    : regionWorkEvent(region, now, [group], lane)
  return {
    groupId: laneMessageGroupId(region, lane),
    deduplicationId: deduplication,
    body: JSON.stringify(event),
  }
}

/** The chunks of a lane too large for one invocation, each a message of the same lane. */
export const chunkMessages = (
  region: string,
  lane: number,
  chunks: readonly (readonly string[])[],
  now: Date,
  bucket: number,
): FanoutMessage[] =>
  chunks.map((groups, index) => ({
    groupId: laneMessageGroupId(region, lane),
    deduplicationId: deduplicationId(region, `lane${lane}`, `chunk${index}`, String(bucket)),
    body: JSON.stringify(regionWorkEvent(region, now, groups, lane)),
  }))

/** Another run of a lane (or of some of its groups) that failed before it acted, marked as a retry. */
export const retryMessage = (
  region: string,
  lane: number,
  groups: readonly string[] | undefined,
  now: Date,
  deduplication: string,
): FanoutMessage => ({
  groupId: laneMessageGroupId(region, lane),
  deduplicationId: deduplication,
  body: JSON.stringify(regionWorkEvent(region, now, groups, lane, true)),
})
