/**
 * EC2's launches as the adapter sends them: instant fleets (fleet.ts chooses the pool), and the temporary
 * launch templates of launch-configuration groups, created and deleted around a launch.
 */
import type {
  _InstanceType,
  CreateFleetCommandInput,
  CreateFleetCommandOutput,
  CreateFleetError,
  CreateFleetInstance,
  FleetLaunchTemplateSpecificationRequest,
} from '@aws-sdk/client-ec2'
import type { Ec2Api } from '../../../lambdas/aws/cloud.ts'
import type { AllocationStrategy } from '../../../lambdas/core/config/config.ts'
import {
  TAG_LAUNCH_TEMPLATE_ID,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_TEMPORARY_TEMPLATE,
} from '../../../lambdas/core/constants.ts'
import type { SpotLaunchResult } from '../../../lambdas/core/port.ts'
import { simAwsError } from '../errors.ts'
import { createFleet, type FleetRequest } from '../fleet.ts'
import { type SimRegion, zoneOfSubnet } from '../state.ts'
import { recordLaunch } from '../touches.ts'
import { type SimApiContext, write } from './request.ts'

const tagsOf = (input: CreateFleetCommandInput, resourceType: string): Record<string, string> => {
  const tags: Record<string, string> = {}
  for (const spec of input.TagSpecifications ?? [])
    if (spec.ResourceType === resourceType)
      for (const tag of spec.Tags ?? []) if (tag.Key) tags[tag.Key] = tag.Value ?? ''
  return tags
}

/**
 * Not an AWS notion: the simulator charges every spot instance to a group. spotswap's launches name it
 * in the launched-for-asg tag; a launch without it belongs to the group whose template it uses.
 */
const groupOfLaunch = (
  ctx: SimApiContext,
  tags: Readonly<Record<string, string>>,
  spec: FleetLaunchTemplateSpecificationRequest | undefined,
): string => {
  const tagged = tags[TAG_LAUNCHED_FOR_GROUP]
  if (tagged !== undefined) return tagged
  const temporary = [...ctx.region.temporaryTemplates.values()].find((t) => t.id === spec?.LaunchTemplateId)
  if (temporary?.group !== undefined) return temporary.group
  for (const group of ctx.region.groups.values()) {
    const own = group.launchTemplate
    if (
      own !== undefined &&
      (own.id === spec?.LaunchTemplateId || (own.id === undefined && own.name === spec?.LaunchTemplateName))
    )
      return group.name
  }
  throw new Error('simulator: CreateFleet for no group (no launched-for-asg tag, no group template)')
}

/** The fleet request in the simulator's words (fleet.ts). */
const fleetRequest = (ctx: SimApiContext, input: CreateFleetCommandInput): FleetRequest => {
  const tags = tagsOf(input, 'instance')
  return {
    groupName: groupOfLaunch(ctx, tags, input.LaunchTemplateConfigs?.[0]?.LaunchTemplateSpecification),
    clientToken: input.ClientToken ?? '',
    allocationStrategy: (input.SpotOptions?.AllocationStrategy ?? 'lowest-price') as AllocationStrategy,
    tags,
    overrides: (input.LaunchTemplateConfigs ?? []).flatMap((config) =>
      (config.Overrides ?? []).map((o) => ({
        instanceType: o.InstanceType ?? '',
        zone: o.AvailabilityZone ?? zoneOfSubnet(o.SubnetId ?? '') ?? '',
        subnetId: o.SubnetId,
        priority: o.Priority ?? 0,
      })),
    ),
  }
}

/**
 * The template the fleet launches from, by id or by name: a temporary one the adapter made, or the
 * group's own. The simulator launches every override from the first config's template.
 */
const templateOf = (
  ctx: SimApiContext,
  spec: FleetLaunchTemplateSpecificationRequest | undefined,
  group: string,
) => {
  const temporary = [...ctx.region.temporaryTemplates.values()].some((t) => t.id === spec?.LaunchTemplateId)
  if (spec?.LaunchTemplateId !== undefined) return { id: spec.LaunchTemplateId, temporary }
  const own = ctx.region.groups.get(group)?.launchTemplate
  return { id: own?.name === spec?.LaunchTemplateName ? own?.id : undefined, temporary: false }
}

const toFleetOutput = (
  result: SpotLaunchResult,
  template: FleetLaunchTemplateSpecificationRequest | undefined,
): CreateFleetCommandOutput => {
  if (!result.ok) {
    const errors: CreateFleetError[] = result.errors.map((error) => ({
      ErrorCode: error.code,
      ErrorMessage: error.message,
      Lifecycle: 'spot',
      ...(error.instanceType === undefined
        ? {}
        : {
            LaunchTemplateAndOverrides: { Overrides: { InstanceType: error.instanceType as _InstanceType } },
          }),
    }))
    return { Instances: [], Errors: errors, $metadata: {} }
  }
  const launched: CreateFleetInstance = {
    InstanceIds: [result.instanceId],
    InstanceType: result.instanceType as CreateFleetInstance['InstanceType'],
    Lifecycle: 'spot',
    LaunchTemplateAndOverrides: {
      LaunchTemplateSpecification: {
        LaunchTemplateId: result.launchTemplateId ?? template?.LaunchTemplateId,
        LaunchTemplateName: template?.LaunchTemplateName,
        Version: template?.Version,
      },
      Overrides: { InstanceType: result.instanceType as _InstanceType, AvailabilityZone: result.zone },
    },
  }
  return { Instances: [launched], Errors: [], $metadata: {} }
}

const templateNotFound = (by: 'id' | 'name', value: string) =>
  by === 'id'
    ? simAwsError(
        'InvalidLaunchTemplateId.NotFound',
        400,
        `The specified launch template, with template ID ${value}, does not exist.`,
      )
    : simAwsError(
        'InvalidLaunchTemplateName.NotFoundException',
        400,
        `The specified launch template, with template name ${value}, does not exist.`,
      )

/**
 * What each ClientToken was first used with (the request but its token), per region: EC2 answers a token
 * used again with other parameters with IdempotentParameterMismatch, and with the same ones with the first
 * answer (https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-idempotency.html). A token is valid for
 * at least 24 hours after its instance ends; the simulator keeps it for the whole run.
 */
const tokenParameters = new WeakMap<SimRegion, Map<string, string>>()

const parametersOf = (input: CreateFleetCommandInput): string =>
  JSON.stringify({ ...input, ClientToken: undefined })

/** Throws EC2's refusal of a token first used with other parameters; remembers a token's first use. */
const checkToken = (region: SimRegion, input: CreateFleetCommandInput): void => {
  if (input.ClientToken === undefined) return
  let tokens = tokenParameters.get(region)
  if (tokens === undefined) {
    tokens = new Map()
    tokenParameters.set(region, tokens)
  }
  const parameters = parametersOf(input)
  const first = tokens.get(input.ClientToken)
  if (first === undefined) tokens.set(input.ClientToken, parameters)
  else if (first !== parameters)
    throw simAwsError(
      'IdempotentParameterMismatch',
      400,
      `Client token ${input.ClientToken} was used before with different parameters.`,
    )
}

/**
 * Groups whose launches the region's EC2 writes no `aws:ec2launchtemplate:id` on, as moto's CreateFleet
 * does (a chaos item): spotswap cannot verify them as its own (core/group/provenance.ts).
 */
const untaggedLaunches = new WeakMap<SimRegion, Set<string>>()

/** From now on, the region's CreateFleet launches for `group` carry no launch-template tag. */
export const omitLaunchTemplateTag = (region: SimRegion, group: string): void => {
  const groups = untaggedLaunches.get(region) ?? new Set<string>()
  groups.add(group)
  untaggedLaunches.set(region, groups)
}

export const ec2Launches = (
  ctx: SimApiContext,
): Pick<Ec2Api, 'createFleet' | 'createLaunchTemplate' | 'deleteLaunchTemplate'> => ({
  createFleet: (input) => {
    const request = fleetRequest(ctx, input)
    const spec = input.LaunchTemplateConfigs?.[0]?.LaunchTemplateSpecification
    return write(
      ctx,
      'ec2:CreateFleet',
      { group: request.groupName },
      () => {
        checkToken(ctx.region, input)
        // A repeated ClientToken answers with the first launch and starts nothing new.
        const repeated = ctx.region.fleetsByToken.has(request.clientToken)
        const result = createFleet(ctx.world, ctx.region, request, templateOf(ctx, spec, request.groupName))
        if (result.ok && !repeated) {
          recordLaunch(ctx.session, ctx.region, request.groupName, result.instanceId)
          const instance = ctx.region.instances.get(result.instanceId)
          if (instance !== undefined && untaggedLaunches.get(ctx.region)?.has(request.groupName)) {
            const { [TAG_LAUNCH_TEMPLATE_ID]: _omitted, ...tags } = instance.tags
            instance.tags = tags
          }
        }
        return toFleetOutput(result, spec)
      },
      { group: request.groupName, resources: 1 },
    )
  },
  createLaunchTemplate: (input) => {
    const name = input.LaunchTemplateName ?? ''
    const group = input.TagSpecifications?.flatMap((s) => s.Tags ?? []).find(
      (t) => t.Key === TAG_TEMPORARY_TEMPLATE,
    )?.Value
    return write(
      ctx,
      'ec2:CreateLaunchTemplate',
      {},
      () => {
        if (ctx.region.temporaryTemplates.has(name))
          throw simAwsError(
            'InvalidLaunchTemplateName.AlreadyExistsException',
            400,
            `Launch template name already in use: ${name}`,
          )
        const id = ctx.world.newTemplateId()
        ctx.region.temporaryTemplates.set(name, { id, group })
        return { LaunchTemplate: { LaunchTemplateId: id, LaunchTemplateName: name }, $metadata: {} }
      },
      { group },
    )
  },
  deleteLaunchTemplate: (input) => {
    const templates = ctx.region.temporaryTemplates
    const name =
      input.LaunchTemplateName ?? [...templates].find(([, t]) => t.id === input.LaunchTemplateId)?.[0]
    const template = name === undefined ? undefined : templates.get(name)
    return write(
      ctx,
      'ec2:DeleteLaunchTemplate',
      {},
      () => {
        if (name === undefined || template === undefined)
          throw input.LaunchTemplateName === undefined
            ? templateNotFound('id', input.LaunchTemplateId ?? '')
            : templateNotFound('name', input.LaunchTemplateName)
        templates.delete(name)
        return { LaunchTemplate: { LaunchTemplateId: template.id, LaunchTemplateName: name }, $metadata: {} }
      },
      { group: template?.group },
    )
  },
})
