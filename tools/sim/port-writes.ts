/**
 * The port's writes, request by request as the AWS adapter makes them (lambdas/aws/actions.ts,
 * launch.ts, launch-configuration.ts): batches, the one-by-one retry of a batch with a missing instance,
 * not-found treated as done where the adapter does so, and temporary templates for launch configurations.
 * Every request is also recorded with what it touched (touches.ts), for the invariant checks.
 */

import {
  isNotFound,
  LaunchConfigurationNotFoundError,
  MissingLaunchSourceError,
} from '../../lambdas/aws/errors.ts'
import { ATTACH_DETACH_CHUNK, INSTANCE_BATCH_CHUNK } from '../../lambdas/aws/limits.ts'
import { chunk } from '../../lambdas/aws/paginate.ts'
import type { SpotLaunchRequest, SpotLaunchResult } from '../../lambdas/core/port.ts'
import type { GateOptions } from './api-gate.ts'
import { terminateByEc2 } from './asg.ts'
import * as asgApi from './asg-api.ts'
import { instanceNotFound, simAwsError, terminationProtectedError } from './errors.ts'
import { createFleet } from './fleet.ts'
import { groupOfId, type PortContext, request } from './port-context.ts'
import { isRunningOrPending } from './state.ts'
import {
  prepareRetirements,
  recordFailure,
  recordGroup,
  recordInstances,
  recordLaunch,
  recordRetired,
} from './touches.ts'

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

/** What a write request names, for the records: a group, instances, or both. */
interface Named {
  readonly group?: string | undefined
  readonly instances?: readonly string[]
}

/** One write request through the gate, recorded with what it names and, if it fails, how. */
const write = <T>(
  ctx: PortContext,
  operation: string,
  named: Named,
  effect: () => T,
  options: GateOptions = {},
): T => {
  const { session, region } = ctx
  if (named.group !== undefined) recordGroup(session, region, operation, named.group)
  recordInstances(session, region, operation, named.instances ?? [])
  const crashedBefore = session.crashed
  try {
    return request(ctx, operation, effect, options)
  } catch (error) {
    if (!crashedBefore && !session.crashed)
      recordFailure(session, operation, named.group, named.instances ?? [], error)
    throw error
  }
}

export const terminateInstances = (ctx: PortContext, ids: readonly string[]): void =>
  forEachBatchSkippingMissing(ids, (batch) =>
    write(
      ctx,
      'ec2:TerminateInstances',
      { instances: batch },
      () => {
        const instances = existing(ctx, batch)
        const protectedOne = instances.find((i) => i.terminationProtected && i.state !== 'terminated')
        if (protectedOne !== undefined) throw terminationProtectedError(protectedOne.id)
        const running = instances.filter(isRunningOrPending).map((i) => i.id)
        for (const instance of instances) terminateByEc2(ctx.world, ctx.region, instance)
        recordRetired(ctx.session, ctx.region, 'ec2:TerminateInstances', running)
      },
      { group: groupOfId(ctx, batch[0] ?? ''), resources: batch.length },
    ),
  )

export const untagInstances = (ctx: PortContext, ids: readonly string[], keys: readonly string[]): void => {
  if (keys.length === 0) return
  forEachBatchSkippingMissing(ids, (batch) =>
    write(
      ctx,
      'ec2:DeleteTags',
      { instances: batch },
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
    write(
      ctx,
      'ec2:CreateTags',
      { instances: batch },
      () => {
        for (const instance of existing(ctx, batch)) instance.tags = { ...instance.tags, ...tags }
      },
      { group: groupOfId(ctx, batch[0] ?? '') },
    ),
  )

export const attachInstances = (ctx: PortContext, groupName: string, ids: readonly string[]): void => {
  for (const batch of chunk(ids, ATTACH_DETACH_CHUNK))
    write(
      ctx,
      'autoscaling:AttachInstances',
      { group: groupName, instances: batch },
      () => asgApi.attachInstances(ctx.world, ctx.region, groupName, batch),
      { group: groupName },
    )
}

export const detachInstances = (
  ctx: PortContext,
  groupName: string,
  ids: readonly string[],
  decrementDesired: boolean,
): void => {
  const operation = 'autoscaling:DetachInstances'
  for (const batch of chunk(ids, ATTACH_DETACH_CHUNK))
    write(
      ctx,
      operation,
      { group: groupName, instances: batch },
      () => {
        const retirements = prepareRetirements(ctx.session, ctx.region, operation, batch, ctx.world.clock.now)
        asgApi.detachInstances(ctx.world, ctx.region, groupName, batch, decrementDesired)
        retirements.commit()
        recordRetired(ctx.session, ctx.region, operation, batch)
      },
      { group: groupName },
    )
}

/** Like the adapter: an instance out of every group fails with a not-found error; its caller decides. */
export const terminateInGroup = (ctx: PortContext, instanceId: string, decrementDesired: boolean): void => {
  const operation = 'autoscaling:TerminateInstanceInAutoScalingGroup'
  write(
    ctx,
    operation,
    { instances: [instanceId] },
    () => {
      const retirements = prepareRetirements(
        ctx.session,
        ctx.region,
        operation,
        [instanceId],
        ctx.world.clock.now,
      )
      asgApi.terminateInGroup(ctx.world, ctx.region, instanceId, decrementDesired)
      retirements.commit()
      recordRetired(ctx.session, ctx.region, operation, [instanceId])
    },
    { group: groupOfId(ctx, instanceId) },
  )
}

const fleet = (
  ctx: PortContext,
  launch: SpotLaunchRequest,
  template: { readonly id: string | undefined; readonly temporary: boolean },
): SpotLaunchResult =>
  write(
    ctx,
    'ec2:CreateFleet',
    { group: launch.groupName },
    () => {
      // A repeated ClientToken answers with the first launch and starts nothing new.
      const repeated = ctx.region.fleetsByToken.has(launch.clientToken)
      const result = createFleet(ctx.world, ctx.region, launch, template)
      if (result.ok && !repeated) recordLaunch(ctx.session, ctx.region, launch.groupName, result.instanceId)
      return result
    },
    { group: launch.groupName, resources: 1 },
  )

/** CreateFleet only takes templates: a launch configuration gets a temporary one, deleted whatever happens. */
const withTemporaryTemplate = (
  ctx: PortContext,
  launch: SpotLaunchRequest,
  configuration: string,
): SpotLaunchResult => {
  const group = launch.groupName
  // Not a write, but made here; recorded like one so every failed request of a run is accounted for.
  write(
    ctx,
    'autoscaling:DescribeLaunchConfigurations',
    {},
    () => {
      if (!ctx.region.launchConfigurations.has(configuration))
        throw new LaunchConfigurationNotFoundError(configuration)
    },
    { group },
  )
  const name = `spotswap-${group}-${launch.clientToken}`
  const templates = ctx.region.temporaryTemplates
  const create = () =>
    write(
      ctx,
      'ec2:CreateLaunchTemplate',
      {},
      () => {
        if (templates.has(name))
          throw simAwsError(
            'InvalidLaunchTemplateName.AlreadyExistsException',
            400,
            `Launch template name already in use: ${name}`,
          )
        templates.set(name, ctx.world.newTemplateId())
      },
      { group },
    )
  const remove = () => write(ctx, 'ec2:DeleteLaunchTemplate', {}, () => templates.delete(name), { group })
  try {
    create()
  } catch (error) {
    if (ctx.session.crashed || (error as Error).name !== 'InvalidLaunchTemplateName.AlreadyExistsException')
      throw error
    remove()
    create()
  }
  try {
    return fleet(ctx, launch, { id: templates.get(name), temporary: true })
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

/** The template's id; a group's own templates are named by id or name (sim groups carry both). */
const templateIdOf = (ctx: PortContext, launch: SpotLaunchRequest): string | undefined => {
  const ref = launch.launchTemplate
  if (ref?.id !== undefined) return ref.id
  const group = ctx.region.groups.get(launch.groupName)
  return group?.launchTemplate?.name === ref?.name ? group?.launchTemplate?.id : undefined
}

export const launchSpot = (ctx: PortContext, launch: SpotLaunchRequest): SpotLaunchResult => {
  if (launch.launchTemplate !== undefined)
    return fleet(ctx, launch, { id: templateIdOf(ctx, launch), temporary: false })
  if (launch.launchConfigurationName !== undefined)
    return withTemporaryTemplate(ctx, launch, launch.launchConfigurationName)
  throw new MissingLaunchSourceError(launch.groupName)
}

export const setMaxSize = (ctx: PortContext, groupName: string, maxSize: number): void =>
  write(
    ctx,
    'autoscaling:UpdateAutoScalingGroup',
    { group: groupName },
    () => asgApi.setMaxSize(ctx.region, groupName, maxSize),
    { group: groupName },
  )

export const tagGroup = (
  ctx: PortContext,
  groupName: string,
  tags: Readonly<Record<string, string>>,
): void => {
  if (Object.keys(tags).length === 0) return
  write(
    ctx,
    'autoscaling:CreateOrUpdateTags',
    { group: groupName },
    () => asgApi.tagGroup(ctx.region, groupName, tags),
    { group: groupName },
  )
}

export const untagGroup = (ctx: PortContext, groupName: string, keys: readonly string[]): void => {
  if (keys.length === 0) return
  write(
    ctx,
    'autoscaling:DeleteTags',
    { group: groupName },
    () => asgApi.untagGroup(ctx.region, groupName, keys),
    { group: groupName },
  )
}
