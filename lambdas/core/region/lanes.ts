/**
 * Lanes: a region's groups spread over several FIFO message groups of the fan-out queue, so a crashed run
 * holds only its lane's groups for the visibility timeout. SQS FIFO hands out a message group's messages
 * one at a time and in order, and different message groups at once; Lambda processes them the same way
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html). So runs of one lane never
 * overlap and runs of two lanes may: a run writes only its lane's groups, and the region's own work
 * (strays) belongs to exactly one lane.
 */

/** Which lane of its region a run covers: lane `index` of `count`. */
export interface RegionLane {
  readonly index: number
  readonly count: number
}

/** The lane that also does the region's own work (strays), and whose message group is the region's name. */
export const REGION_WORK_LANE = 0

/**
 * FNV-1a (32 bits) of the group's name: stable across runs, containers and releases, so a group is always
 * in the same lane for a given lane count. Names are hashed as UTF-16 code units; any stable function does.
 */
const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

/** The lane of a group, by its name (a name is unique in its region: CreateAutoScalingGroup). */
export const laneOf = (groupName: string, count: number): number =>
  count <= 1 ? REGION_WORK_LANE : fnv1a(groupName) % count

export const inLane = (groupName: string, lane: RegionLane): boolean =>
  laneOf(groupName, lane.count) === lane.index

/** Whether the lane does the region's own work: strays. */
export const doesRegionWork = (lane: RegionLane | undefined): boolean =>
  lane === undefined || lane.index === REGION_WORK_LANE

/**
 * The lane's FIFO MessageGroupId. Lane 0 keeps the region's name, the message group every region run used
 * before lanes, so a message sent before an upgrade runs only lane 0's work and overlaps no other lane.
 */
export const laneMessageGroupId = (region: string, lane: number): string =>
  lane === REGION_WORK_LANE ? region : `${region}/lane-${lane}`

/** Whether a number is a lane index of `count` lanes. */
export const isLaneIndex = (value: unknown, count: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < count

/** Every lane of a region, in order. */
export const allLanes = (count: number): RegionLane[] =>
  Array.from({ length: Math.max(1, count) }, (_, index) => ({ index, count: Math.max(1, count) }))

/** A region-wide bound shared by a region's lanes, which may run at once: each lane's share, at least 1. */
export const laneShare = (bound: number, count: number): number =>
  Math.max(1, Math.floor(bound / Math.max(1, count)))
