/**
 * Auto Scaling's writes as the adapter sends them, each applied by asg-api.ts with the service's rules,
 * recorded with what it touched (touches.ts), and refused beyond the API's limits.
 */
import type { TagDescription } from '@aws-sdk/client-auto-scaling'
import type { AutoScalingApi } from '../../../lambdas/aws/cloud.ts'
import { API_LIMITS } from '../../../lambdas/aws/limits.ts'
import * as asgApi from '../asg-api.ts'
import { prepareRetirements, recordRetired } from '../touches.ts'
import { checkCount } from './paging.ts'
import { groupOfId, type SimApiContext, write } from './request.ts'

/** The Auto Scaling requests that change something: answered here, the rest in autoscaling-reads.ts. */
export type AutoScalingWrite =
  | 'attachInstances'
  | 'detachInstances'
  | 'terminateInstanceInAutoScalingGroup'
  | 'updateAutoScalingGroup'
  | 'setDesiredCapacity'
  | 'createOrUpdateTags'
  | 'deleteTags'

const DONE = { $metadata: {} }

const checkIds = (operation: string, ids: readonly string[]): void =>
  checkCount(
    { operation, invalidCode: 'ValidationError' },
    'instance ids',
    ids.length,
    API_LIMITS.attachDetachInstanceIds,
  )

/** Group tags name their group as ResourceId; every tag of one request names the same group here. */
const groupOfTags = (tags: readonly TagDescription[] | undefined): string => {
  const names = new Set((tags ?? []).map((t) => t.ResourceId ?? ''))
  const [name] = names
  // Not an AWS rule: the adapter tags one group per request, and the simulator records it so.
  if (names.size !== 1 || name === undefined)
    throw new Error('simulator: group tags of one group per request')
  return name
}

export const autoScalingWrites = (ctx: SimApiContext): Pick<AutoScalingApi, AutoScalingWrite> => ({
  attachInstances: (input) => {
    const group = input.AutoScalingGroupName ?? ''
    const ids = input.InstanceIds ?? []
    return write(
      ctx,
      'autoscaling:AttachInstances',
      { group, instances: ids },
      () => {
        checkIds('AttachInstances', ids)
        asgApi.attachInstances(ctx.world, ctx.region, group, ids)
        return DONE
      },
      { group },
    )
  },
  detachInstances: (input) => {
    const operation = 'autoscaling:DetachInstances'
    const group = input.AutoScalingGroupName ?? ''
    const ids = input.InstanceIds ?? []
    return write(
      ctx,
      operation,
      { group, instances: ids },
      () => {
        checkIds('DetachInstances', ids)
        const retirements = prepareRetirements(
          ctx.session,
          ctx.region,
          operation,
          ids,
          ctx.world.clock.now,
          input.ShouldDecrementDesiredCapacity === true,
        )
        asgApi.detachInstances(
          ctx.world,
          ctx.region,
          group,
          ids,
          input.ShouldDecrementDesiredCapacity === true,
        )
        retirements.commit()
        recordRetired(ctx.session, ctx.region, operation, ids)
        return { Activities: [], $metadata: {} }
      },
      { group },
    )
  },
  // An instance out of every group fails with a not-found ValidationError; the adapter's caller decides.
  terminateInstanceInAutoScalingGroup: (input) => {
    const operation = 'autoscaling:TerminateInstanceInAutoScalingGroup'
    const id = input.InstanceId ?? ''
    return write(
      ctx,
      operation,
      { instances: [id] },
      () => {
        const retirements = prepareRetirements(
          ctx.session,
          ctx.region,
          operation,
          [id],
          ctx.world.clock.now,
          input.ShouldDecrementDesiredCapacity === true,
        )
        asgApi.terminateInGroup(ctx.world, ctx.region, id, input.ShouldDecrementDesiredCapacity === true)
        retirements.commit()
        recordRetired(ctx.session, ctx.region, operation, [id])
        return DONE
      },
      () => ({ group: groupOfId(ctx, id) }),
    )
  },
  updateAutoScalingGroup: (input) => {
    const group = input.AutoScalingGroupName ?? ''
    return write(
      ctx,
      'autoscaling:UpdateAutoScalingGroup',
      { group },
      () => {
        const { AutoScalingGroupName: _, MaxSize, DesiredCapacity, ...others } = input
        // Not an AWS rule: the simulator models the settings the adapter changes.
        if ((MaxSize === undefined && DesiredCapacity === undefined) || Object.keys(others).length > 0)
          throw new Error('simulator: UpdateAutoScalingGroup models MaxSize and DesiredCapacity only')
        if (DesiredCapacity === undefined) asgApi.setMaxSize(ctx.world, ctx.region, group, MaxSize ?? 0)
        else asgApi.updateDesiredCapacity(ctx.world, ctx.region, group, DesiredCapacity, MaxSize)
        return DONE
      },
      { group },
    )
  },
  setDesiredCapacity: (input) => {
    const group = input.AutoScalingGroupName ?? ''
    return write(
      ctx,
      'autoscaling:SetDesiredCapacity',
      { group },
      () => {
        asgApi.setDesiredCapacity(ctx.world, ctx.region, group, input.DesiredCapacity ?? Number.NaN)
        return DONE
      },
      { group },
    )
  },
  // Tags written through the API do not propagate unless asked to; the adapter never asks (asg-api.ts).
  createOrUpdateTags: (input) => {
    const group = groupOfTags(input.Tags)
    return write(
      ctx,
      'autoscaling:CreateOrUpdateTags',
      { group },
      () => {
        const tags: Record<string, string> = {}
        for (const tag of input.Tags ?? []) if (tag.Key) tags[tag.Key] = tag.Value ?? ''
        asgApi.tagGroup(ctx.region, group, tags)
        return DONE
      },
      { group },
    )
  },
  deleteTags: (input) => {
    const group = groupOfTags(input.Tags)
    return write(
      ctx,
      'autoscaling:DeleteTags',
      { group },
      () => {
        asgApi.untagGroup(
          ctx.region,
          group,
          (input.Tags ?? []).flatMap((t) => (t.Key ? [t.Key] : [])),
        )
        return DONE
      },
      { group },
    )
  },
})
