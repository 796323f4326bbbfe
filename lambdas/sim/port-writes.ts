/**
 * The port's writes, request by request as the AWS adapter makes them (lambdas/aws/actions.ts,
 * launch.ts, launch-configuration.ts): batches, the one-by-one retry of a batch with a missing instance,
 * not-found treated as done where the adapter does so, and temporary templates for launch configurations.
 */

import { isNotFound, LaunchConfigurationNotFoundError, MissingLaunchSourceError } from '../aws/errors.ts'
import { ATTACH_DETACH_CHUNK, INSTANCE_BATCH_CHUNK } from '../aws/limits.ts'
import { chunk } from '../aws/paginate.ts'
import type { SpotLaunchRequest, SpotLaunchResult } from '../core/port.ts'
import { terminateByEc2 } from './asg.ts'
import * as asgApi from './asg-api.ts'
import { instanceNotFound, simAwsError, terminationProtectedError } from './errors.ts'
import { createFleet } from './fleet.ts'
import { groupOfId, type PortContext, request } from './port-context.ts'

/** lambdas/aws/actions.ts forEachBatchSkippingMissing: a batch failing on a missing id is redone id by id. */
const forEachBatchSkippingMissing = (ids: readonly string[], act: (batch: string[]) => void): void => {
  for (const batch of chunk([...new Set(ids)], INSTANCE_BATCH_CHUNK)) {
    try {
      act(batch)
    } catch (error) {
      if (!isNotFound(error)) throw error
      if (batch.length === 1) continue
      for (const id of batch) {
        try {
          act([id])
        } catch (single) {
          if (!isNotFound(single)) throw single
        }
      }
    }
  }
}

const existing = (ctx: PortContext, ids: readonly string[]) =>
  ids.map((id) => {
    const instance = ctx.region.instances.get(id)
    if (instance === undefined) throw instanceNotFound(id)
    return instance
  })

export const terminateInstances = (ctx: PortContext, ids: readonly string[]): void =>
  forEachBatchSkippingMissing(ids, (batch) =>
    request(
      ctx,
      'ec2:TerminateInstances',
      () => {
        const instances = existing(ctx, batch)
        const protectedOne = instances.find((i) => i.terminationProtected && i.state !== 'terminated')
        if (protectedOne !== undefined) throw terminationProtectedError(protectedOne.id)
        for (const instance of instances) terminateByEc2(ctx.world, ctx.region, instance)
      },
      { group: groupOfId(ctx, batch[0] ?? ''), resources: batch.length },
    ),
  )

export const untagInstances = (ctx: PortContext, ids: readonly string[], keys: readonly string[]): void => {
  if (keys.length === 0) return
  forEachBatchSkippingMissing(ids, (batch) =>
    request(
      ctx,
      'ec2:DeleteTags',
      () => {
        for (const instance of existing(ctx, batch))
          instance.tags = Object.fromEntries(Object.entries(instance.tags).filter(([k]) => !keys.includes(k)))
      },
      { group: groupOfId(ctx, batch[0] ?? '') },
    ),
  )
}

export const tagInstances = (
  ctx: PortContext,
  ids: readonly string[],
  tags: Readonly<Record<string, string>>,
): void =>
  forEachBatchSkippingMissing(ids, (batch) =>
    request(
      ctx,
      'ec2:CreateTags',
      () => {
        for (const instance of existing(ctx, batch)) instance.tags = { ...instance.tags, ...tags }
      },
      { group: groupOfId(ctx, batch[0] ?? '') },
    ),
  )

export const attachInstances = (ctx: PortContext, groupName: string, ids: readonly string[]): void => {
  for (const batch of chunk(ids, ATTACH_DETACH_CHUNK))
    request(
      ctx,
      'autoscaling:AttachInstances',
      () => asgApi.attachInstances(ctx.world, ctx.region, groupName, batch),
      {
        group: groupName,
      },
    )
}

export const detachInstances = (
  ctx: PortContext,
  groupName: string,
  ids: readonly string[],
  decrementDesired: boolean,
): void => {
  for (const batch of chunk(ids, ATTACH_DETACH_CHUNK))
    request(
      ctx,
      'autoscaling:DetachInstances',
      () => asgApi.detachInstances(ctx.world, ctx.region, groupName, batch, decrementDesired),
      { group: groupName },
    )
}

/** Like the adapter: an instance already out of every group is done. */
export const terminateInGroup = (ctx: PortContext, instanceId: string, decrementDesired: boolean): void => {
  try {
    request(
      ctx,
      'autoscaling:TerminateInstanceInAutoScalingGroup',
      () => asgApi.terminateInGroup(ctx.world, ctx.region, instanceId, decrementDesired),
      { group: groupOfId(ctx, instanceId) },
    )
  } catch (error) {
    if (!isNotFound(error)) throw error
  }
}

const fleet = (ctx: PortContext, launch: SpotLaunchRequest): SpotLaunchResult =>
  request(ctx, 'ec2:CreateFleet', () => createFleet(ctx.world, ctx.region, launch), {
    group: launch.groupName,
    resources: 1,
  })

/** CreateFleet only takes templates: a launch configuration gets a temporary one, deleted whatever happens. */
const withTemporaryTemplate = (
  ctx: PortContext,
  launch: SpotLaunchRequest,
  configuration: string,
): SpotLaunchResult => {
  const group = launch.groupName
  request(
    ctx,
    'autoscaling:DescribeLaunchConfigurations',
    () => {
      if (!ctx.region.launchConfigurations.has(configuration))
        throw new LaunchConfigurationNotFoundError(configuration)
    },
    { group },
  )
  const name = `spotswap-${group}-${launch.clientToken}`
  const templates = ctx.region.temporaryTemplates
  const create = () =>
    request(
      ctx,
      'ec2:CreateLaunchTemplate',
      () => {
        if (templates.has(name))
          throw simAwsError(
            'InvalidLaunchTemplateName.AlreadyExistsException',
            400,
            `Launch template name already in use: ${name}`,
          )
        templates.add(name)
      },
      { group },
    )
  const remove = () => request(ctx, 'ec2:DeleteLaunchTemplate', () => templates.delete(name), { group })
  try {
    create()
  } catch (error) {
    if (ctx.session.crashed || (error as Error).name !== 'InvalidLaunchTemplateName.AlreadyExistsException')
      throw error
    remove()
    create()
  }
  try {
    return fleet(ctx, launch)
  } finally {
    if (!ctx.session.crashed) {
      try {
        remove()
      } catch {
        // The adapter logs a failed delete and carries on; the template is left behind, as in AWS.
      }
    }
  }
}

export const launchSpot = (ctx: PortContext, launch: SpotLaunchRequest): SpotLaunchResult => {
  if (launch.launchTemplate !== undefined) return fleet(ctx, launch)
  if (launch.launchConfigurationName !== undefined)
    return withTemporaryTemplate(ctx, launch, launch.launchConfigurationName)
  throw new MissingLaunchSourceError(launch.groupName)
}

export const setMaxSize = (ctx: PortContext, groupName: string, maxSize: number): void =>
  request(
    ctx,
    'autoscaling:UpdateAutoScalingGroup',
    () => asgApi.setMaxSize(ctx.region, groupName, maxSize),
    {
      group: groupName,
    },
  )

export const tagGroup = (
  ctx: PortContext,
  groupName: string,
  tags: Readonly<Record<string, string>>,
): void => {
  if (Object.keys(tags).length === 0) return
  request(ctx, 'autoscaling:CreateOrUpdateTags', () => asgApi.tagGroup(ctx.region, groupName, tags), {
    group: groupName,
  })
}

export const untagGroup = (ctx: PortContext, groupName: string, keys: readonly string[]): void => {
  if (keys.length === 0) return
  request(ctx, 'autoscaling:DeleteTags', () => asgApi.untagGroup(ctx.region, groupName, keys), {
    group: groupName,
  })
}
