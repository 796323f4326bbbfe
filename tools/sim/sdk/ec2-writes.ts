/**
 * EC2's batch writes as the adapter sends them: termination and instance tags, a batch of ids per
 * request, where one missing id fails the whole request as in EC2 (the adapter then redoes it id by id).
 */
import type { Ec2Api } from '../../../lambdas/aws/cloud.ts'
import { terminateByEc2 } from '../asg.ts'
import { instanceNotFound, terminationProtectedError } from '../errors.ts'
import { isRunningOrPending, type SimInstance } from '../state.ts'
import { recordRetired } from '../touches.ts'
import { groupOfId, type SimApiContext, write } from './request.ts'

const existing = (ctx: SimApiContext, ids: readonly string[]): SimInstance[] =>
  ids.map((id) => {
    const instance = ctx.region.instances.get(id)
    if (instance === undefined) throw instanceNotFound(id)
    return instance
  })

export const ec2Writes = (
  ctx: SimApiContext,
): Pick<Ec2Api, 'terminateInstances' | 'createTags' | 'deleteTags'> => ({
  terminateInstances: (input) => {
    const ids = input.InstanceIds ?? []
    return write(
      ctx,
      'ec2:TerminateInstances',
      { instances: ids },
      () => {
        const instances = existing(ctx, ids)
        const protectedOne = instances.find((i) => i.terminationProtected && i.state !== 'terminated')
        if (protectedOne !== undefined) throw terminationProtectedError(protectedOne.id)
        const running = instances.filter(isRunningOrPending).map((i) => i.id)
        const previous = instances.map((i) => i.state)
        for (const instance of instances) terminateByEc2(ctx.world, ctx.region, instance)
        recordRetired(ctx.session, ctx.region, 'ec2:TerminateInstances', running)
        return {
          TerminatingInstances: instances.map((i, n) => ({
            InstanceId: i.id,
            PreviousState: { Name: previous[n] },
            CurrentState: { Name: i.state },
          })),
          $metadata: {},
        }
      },
      () => ({ group: groupOfId(ctx, ids[0] ?? ''), resources: ids.length }),
    )
  },
  createTags: (input) => {
    const ids = input.Resources ?? []
    return write(
      ctx,
      'ec2:CreateTags',
      { instances: ids, tagKeys: (input.Tags ?? []).map((t) => t.Key ?? '') },
      () => {
        const tags: Record<string, string> = {}
        for (const tag of input.Tags ?? []) if (tag.Key) tags[tag.Key] = tag.Value ?? ''
        for (const instance of existing(ctx, ids)) instance.tags = { ...instance.tags, ...tags }
        return { $metadata: {} }
      },
      () => ({ group: groupOfId(ctx, ids[0] ?? '') }),
    )
  },
  // A tag named without a value goes whatever its value (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DeleteTags.html).
  deleteTags: (input) => {
    const ids = input.Resources ?? []
    return write(
      ctx,
      'ec2:DeleteTags',
      { instances: ids, tagKeys: (input.Tags ?? []).map((t) => t.Key ?? '') },
      () => {
        const doomed = (key: string, value: string) =>
          (input.Tags ?? []).some((t) => t.Key === key && (t.Value === undefined || t.Value === value))
        for (const instance of existing(ctx, ids))
          instance.tags = Object.fromEntries(Object.entries(instance.tags).filter(([k, v]) => !doomed(k, v)))
        return { $metadata: {} }
      },
      () => ({ group: groupOfId(ctx, ids[0] ?? '') }),
    )
  },
})
