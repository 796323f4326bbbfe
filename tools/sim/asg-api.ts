/**
 * The Auto Scaling write API as the engine calls it, with the service's rules: AttachInstances beyond
 * MaxSize, a decrement below MinSize or a MaxSize below MinSize fail with ValidationError; a MaxSize below
 * desired capacity lowers desired to it (and the group scales in); acting on an instance that is not a
 * member fails with the messages the engine's error classifier reads as "gone".
 */

import { reconcile, recordActivity, userSetsDesired } from './asg.ts'
import { GROUP_NAME_TAG, terminateMember } from './asg-members.ts'
import { groupNotFound, validationError } from './errors.ts'
import { deregisterTargets, registerTargets } from './load-balancers.ts'
import type { SimGroup, SimRegion } from './state.ts'
import type { World } from './world.ts'

export const groupNamed = (region: SimRegion, name: string): SimGroup => {
  const group = region.groups.get(name)
  if (group === undefined) throw groupNotFound(name)
  return group
}

const sizeError = (desired: number, min: number, max: number) =>
  validationError(
    `Desired capacity:${desired} must be between the specified min size:${min} and max size:${max}`,
  )

export const attachInstances = (
  world: World,
  region: SimRegion,
  groupName: string,
  ids: readonly string[],
): void => {
  const group = groupNamed(region, groupName)
  const unique = [...new Set(ids)]
  for (const id of unique) {
    const instance = region.live(id)
    if (instance === undefined) throw validationError(`The instance ID '${id}' does not exist`)
    if (instance.state !== 'running') throw validationError(`Instance ${id} is not in the running state.`)
    if (region.groupOf(id) !== undefined)
      throw validationError(`The instance ${id} is already part of an Auto Scaling group.`)
    if (!group.zones.includes(instance.zone))
      throw validationError(
        `The instance ${id} is in ${instance.zone}, which is not an Availability Zone of ${groupName}.`,
      )
  }
  const desired = group.desiredCapacity + unique.length
  if (desired > group.maxSize) throw sizeError(desired, group.minSize, group.maxSize)
  group.desiredCapacity = desired
  for (const id of unique) {
    const instance = region.live(id)
    if (instance === undefined) continue
    region.addMember(group, id, {
      lifecycleState: 'InService',
      protectedFromScaleIn: false,
      attachedMs: world.clock.now,
    })
    // Registered with the group's load balancers at once; it serves once healthy
    // (https://docs.aws.amazon.com/autoscaling/ec2/userguide/attach-instance-asg.html).
    registerTargets(world, region, group, instance)
    instance.tags = { ...instance.tags, [GROUP_NAME_TAG]: groupName }
    world.notify((o) => o.attached?.(group, instance))
  }
}

const notAMember = (id: string, groupName: string) =>
  validationError(`The instance ${id} is not part of Auto Scaling group ${groupName}.`)

export const detachInstances = (
  world: World,
  region: SimRegion,
  groupName: string,
  ids: readonly string[],
  decrementDesired: boolean,
): void => {
  const group = groupNamed(region, groupName)
  const unique = [...new Set(ids)]
  for (const id of unique) {
    const member = group.members.get(id)
    if (member === undefined) throw notAMember(id, groupName)
    if (member.lifecycleState !== 'InService' && member.lifecycleState !== 'Standby')
      throw validationError(
        `The instance ${id} is in ${member.lifecycleState}; only InService or Standby instances can be detached.`,
      )
  }
  if (decrementDesired && group.desiredCapacity - unique.length < group.minSize)
    throw validationError(
      `Detaching ${unique.length} instance(s) with a decrement would leave desired capacity below the group's min size (${group.minSize}).`,
    )
  for (const id of unique) {
    deregisterTargets(world, region, group, id)
    region.removeMember(group, id)
  }
  if (decrementDesired) group.desiredCapacity -= unique.length
  region.touch(group)
  reconcile(world, region, group)
}

export const terminateInGroup = (
  world: World,
  region: SimRegion,
  instanceId: string,
  decrementDesired: boolean,
): void => {
  const group = region.groupOf(instanceId)
  const member = group?.members.get(instanceId)
  if (group === undefined || member === undefined)
    throw validationError(`Instance Id not found - No managed instance found for instance ID: ${instanceId}`)
  if (member.lifecycleState.startsWith('Terminating'))
    throw validationError(`The instance ${instanceId} is already terminating.`)
  if (decrementDesired && group.desiredCapacity - 1 < group.minSize)
    throw validationError(
      `Currently, desiredSize equals minSize (${group.minSize}). Terminating instance without replacement will violate group's min size constraint. Either set shouldDecrementDesiredCapacity flag to false or lower group's min size.`,
    )
  if (decrementDesired) group.desiredCapacity -= 1
  region.touch(group)
  terminateMember(world, region, group, instanceId)
  reconcile(world, region, group)
}

const maxBelowMin = (max: number, min: number) =>
  validationError(`Max bound, ${max}, must be greater than or equal to min bound, ${min}`)

/** A request's new desired capacity: the activity Auto Scaling writes for it, and the group scales to it. */
const updateDesired = (world: World, region: SimRegion, group: SimGroup, desired: number): void => {
  recordActivity(
    group,
    world.clock.now,
    `At ${new Date(world.clock.now).toISOString().replace(/\.\d{3}Z$/, 'Z')} a user request update of AutoScalingGroup constraints to min: ${group.minSize}, max: ${group.maxSize}, desired: ${desired} changing the desired capacity from ${group.desiredCapacity} to ${desired}.`,
  )
  group.desiredCapacity = desired
  reconcile(world, region, group)
}

/**
 * UpdateAutoScalingGroup with MaxSize alone. Below MinSize it is refused; below desired capacity it sets
 * desired to the new MaxSize, and the group terminates members by its termination policy
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_UpdateAutoScalingGroup.html), writing the
 * activity Auto Scaling writes for a change of its constraints.
 */
export const setMaxSize = (world: World, region: SimRegion, groupName: string, maxSize: number): void => {
  const group = groupNamed(region, groupName)
  if (!Number.isInteger(maxSize) || maxSize < group.minSize) throw maxBelowMin(maxSize, group.minSize)
  group.maxSize = maxSize
  region.touch(group)
  if (group.desiredCapacity <= maxSize) return
  updateDesired(world, region, group, maxSize)
}

/**
 * UpdateAutoScalingGroup with DesiredCapacity (and MaxSize, when given with it): the new desired capacity
 * must lie within MinSize and the MaxSize the request leaves, or the request is refused whole
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_UpdateAutoScalingGroup.html); the group then
 * launches or terminates members to reach it, as for SetDesiredCapacity
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_SetDesiredCapacity.html). Setting the value
 * it already has changes nothing and writes no activity.
 */
export const updateDesiredCapacity = (
  world: World,
  region: SimRegion,
  groupName: string,
  desired: number,
  maxSize?: number,
): void => {
  const group = groupNamed(region, groupName)
  const max = maxSize ?? group.maxSize
  if (!Number.isInteger(max) || max < group.minSize) throw maxBelowMin(max, group.minSize)
  if (!Number.isInteger(desired) || desired < group.minSize || desired > max)
    throw sizeError(desired, group.minSize, max)
  group.maxSize = max
  region.touch(group)
  if (desired === group.desiredCapacity) return
  updateDesired(world, region, group, desired)
}

/**
 * SetDesiredCapacity: within MinSize and MaxSize, else a ValidationError; the group then launches or
 * scales in to reach it, and Auto Scaling writes the activity of a user's request
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_SetDesiredCapacity.html).
 */
export const setDesiredCapacity = (
  world: World,
  region: SimRegion,
  groupName: string,
  desired: number,
): void => {
  const group = groupNamed(region, groupName)
  if (!Number.isInteger(desired) || desired > group.maxSize)
    throw validationError(
      `New SetDesiredCapacity value ${desired} is above max value ${group.maxSize} for the AutoScalingGroup.`,
    )
  if (desired < group.minSize)
    throw validationError(
      `New SetDesiredCapacity value ${desired} is below min value ${group.minSize} for the AutoScalingGroup.`,
    )
  if (desired !== group.desiredCapacity) userSetsDesired(world, region, group, desired)
}

/**
 * The owner changes MaxSize alone (the console, CloudFormation, a scheduled action): the same rule, and
 * what they set is theirs. A desired capacity AWS lowered to it is theirs too (its activity reads as an
 * owner's change). Setting the value the group already has changes nothing AWS shows: the owner's
 * setting stays what it was, as for desired capacity (asg.ts ownerSetsDesired).
 */
export const ownerSetsMaxSize = (
  world: World,
  region: SimRegion,
  groupName: string,
  maxSize: number,
): void => {
  const group = groupNamed(region, groupName)
  if (maxSize === group.maxSize) return
  const lowersDesired = maxSize < group.desiredCapacity
  setMaxSize(world, region, groupName, maxSize)
  group.owner = {
    ...group.owner,
    maxSize,
    desiredCapacity: lowersDesired ? maxSize : group.owner.desiredCapacity,
  }
}

/** Tags written through the API do not propagate to new instances (the adapter sets PropagateAtLaunch false). */
export const tagGroup = (
  region: SimRegion,
  groupName: string,
  tags: Readonly<Record<string, string>>,
): void => {
  const group = groupNamed(region, groupName)
  group.tags = { ...group.tags, ...tags }
  for (const key of Object.keys(tags)) group.propagatedKeys.delete(key)
  region.touch(group)
}

export const untagGroup = (region: SimRegion, groupName: string, keys: readonly string[]): void => {
  const group = groupNamed(region, groupName)
  group.tags = Object.fromEntries(Object.entries(group.tags).filter(([key]) => !keys.includes(key)))
  region.touch(group)
}
