/**
 * Auto Scaling and EC2 writes. Failures reach the caller as the SDK raised them (classify them with
 * errors.ts): a missing instance is news the caller may act on ("raced", "already gone").
 */
import { isMarker } from '../core/markers.ts'
import type { AwsContext } from './context.ts'
import { isNotFound } from './errors.ts'
import { ATTACH_DETACH_CHUNK, INSTANCE_BATCH_CHUNK } from './limits.ts'
import { signTags } from './markers.ts'
import { chunk } from './paginate.ts'

/**
 * Acts on ids in batches. One missing id fails its whole batch, so that batch is redone one id at a
 * time: every id still there is acted on, and then the first not-found error is raised for the rest.
 */
const forEachBatch = async (
  ids: readonly string[],
  size: number,
  act: (batch: string[]) => Promise<unknown>,
): Promise<void> => {
  let missing: unknown
  for (const batch of chunk([...new Set(ids)], size)) {
    try {
      await act(batch)
    } catch (error) {
      if (!isNotFound(error) || batch.length === 1) throw error
      for (const id of batch) {
        try {
          await act([id])
        } catch (single) {
          if (!isNotFound(single)) throw single
          missing ??= single
        }
      }
    }
  }
  if (missing !== undefined) throw missing
}

export const attachInstances = async (
  ctx: AwsContext,
  groupName: string,
  ids: readonly string[],
): Promise<void> => {
  for (const batch of chunk(ids, ATTACH_DETACH_CHUNK)) {
    await ctx.call('autoscaling:AttachInstances', () =>
      ctx.autoScaling.attachInstances({ AutoScalingGroupName: groupName, InstanceIds: batch }),
    )
  }
}

export const detachInstances = async (
  ctx: AwsContext,
  groupName: string,
  ids: readonly string[],
  decrementDesired: boolean,
): Promise<void> => {
  for (const batch of chunk(ids, ATTACH_DETACH_CHUNK)) {
    await ctx.call('autoscaling:DetachInstances', () =>
      ctx.autoScaling.detachInstances({
        AutoScalingGroupName: groupName,
        InstanceIds: batch,
        ShouldDecrementDesiredCapacity: decrementDesired,
      }),
    )
  }
}

export const terminateInGroup = async (
  ctx: AwsContext,
  instanceId: string,
  decrementDesired: boolean,
): Promise<void> => {
  await ctx.call('autoscaling:TerminateInstanceInAutoScalingGroup', () =>
    ctx.autoScaling.terminateInstanceInAutoScalingGroup({
      InstanceId: instanceId,
      ShouldDecrementDesiredCapacity: decrementDesired,
    }),
  )
}

export const terminateInstances = (ctx: AwsContext, ids: readonly string[]): Promise<void> =>
  forEachBatch(ids, INSTANCE_BATCH_CHUNK, (batch) =>
    ctx.call('ec2:TerminateInstances', () => ctx.ec2.terminateInstances({ InstanceIds: batch })),
  )

/** MaxSize only: every other setting of the group stays as its owner left it. */
export const setMaxSize = async (ctx: AwsContext, groupName: string, maxSize: number): Promise<void> => {
  await ctx.call('autoscaling:UpdateAutoScalingGroup', () =>
    ctx.autoScaling.updateAutoScalingGroup({ AutoScalingGroupName: groupName, MaxSize: maxSize }),
  )
}

/**
 * SetDesiredCapacity without HonorCooldown: Auto Scaling launches from the group's own template to reach it
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_SetDesiredCapacity.html).
 */
export const setDesiredCapacity = async (
  ctx: AwsContext,
  groupName: string,
  desired: number,
): Promise<void> => {
  await ctx.call('autoscaling:SetDesiredCapacity', () =>
    ctx.autoScaling.setDesiredCapacity({ AutoScalingGroupName: groupName, DesiredCapacity: desired }),
  )
}

const groupTag = (groupName: string, Key: string) => ({
  ResourceId: groupName,
  ResourceType: 'auto-scaling-group',
  Key,
})

/** Bookkeeping tags on the group itself; PropagateAtLaunch false keeps them off new instances. */
export const tagGroup = async (
  ctx: AwsContext,
  groupName: string,
  tags: Readonly<Record<string, string>>,
): Promise<void> => {
  if (Object.keys(tags).length === 0) return
  const entries = Object.entries(await signTags(ctx, { kind: 'group', name: groupName }, tags))
  await ctx.call('autoscaling:CreateOrUpdateTags', () =>
    ctx.autoScaling.createOrUpdateTags({
      Tags: entries.map(([key, Value]) => ({
        ...groupTag(groupName, key),
        Value,
        PropagateAtLaunch: false,
      })),
    }),
  )
}

export const untagGroup = async (
  ctx: AwsContext,
  groupName: string,
  keys: readonly string[],
): Promise<void> => {
  if (keys.length === 0) return
  await ctx.call('autoscaling:DeleteTags', () =>
    ctx.autoScaling.deleteTags({ Tags: keys.map((key) => groupTag(groupName, key)) }),
  )
}

export const tagInstances = async (
  ctx: AwsContext,
  ids: readonly string[],
  tags: Readonly<Record<string, string>>,
): Promise<void> => {
  const entries = Object.entries(tags)
  if (entries.length === 0) return
  // A marker's MAC covers its instance, so each instance gets its own value and its own CreateTags.
  if (entries.some(([key]) => isMarker(key))) {
    for (const id of ids) {
      const signed = await signTags(ctx, { kind: 'instance', id }, tags)
      await ctx.call('ec2:CreateTags', () =>
        ctx.ec2.createTags({
          Resources: [id],
          Tags: Object.entries(signed).map(([Key, Value]) => ({ Key, Value })),
        }),
      )
    }
    return
  }
  await forEachBatch(ids, INSTANCE_BATCH_CHUNK, (batch) =>
    ctx.call('ec2:CreateTags', () =>
      ctx.ec2.createTags({
        Resources: batch,
        Tags: entries.map(([Key, Value]) => ({ Key, Value })),
      }),
    ),
  )
}

/** Tags given by key only, so each is removed whatever its value. */
export const untagInstances = async (
  ctx: AwsContext,
  ids: readonly string[],
  keys: readonly string[],
): Promise<void> => {
  if (keys.length === 0) return
  await forEachBatch(ids, INSTANCE_BATCH_CHUNK, (batch) =>
    ctx.call('ec2:DeleteTags', () =>
      ctx.ec2.deleteTags({ Resources: batch, Tags: keys.map((Key) => ({ Key })) }),
    ),
  )
}
