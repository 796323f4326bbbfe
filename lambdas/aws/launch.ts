/**
 * One spot instance per request through an instant EC2 Fleet: the fleet picks a pool among the
 * overrides by the configured allocation strategy and reports per-override failures as data.
 */
import type {
  _InstanceType,
  CreateFleetCommandInput,
  CreateFleetCommandOutput,
  FleetLaunchTemplateConfigRequest,
  FleetLaunchTemplateOverridesRequest,
  FleetLaunchTemplateSpecificationRequest,
  SpotAllocationStrategy,
  Tag,
} from '@aws-sdk/client-ec2'
import type { AllocationStrategy } from '../core/config/config.ts'
import type { FleetOverride, SpotLaunchRequest, SpotLaunchResult } from '../core/port.ts'
import type { LaunchTemplateRef } from '../core/types.ts'
import type { AwsContext } from './context.ts'
import { errorCode, errorMessage, isCapacityError, isQuotaError, MissingLaunchSourceError } from './errors.ts'
import { withTemporaryTemplate } from './launch-configuration.ts'

const ALLOCATION_STRATEGIES: Readonly<Record<AllocationStrategy, SpotAllocationStrategy>> = {
  'price-capacity-optimized': 'price-capacity-optimized',
  'capacity-optimized-prioritized': 'capacity-optimized-prioritized',
  'lowest-price': 'lowest-price',
}

/** Auto Scaling launches `$Default` when a group names no version; the fleet must do the same. */
const DEFAULT_TEMPLATE_VERSION = '$Default'

export const fleetTemplate = (ref: LaunchTemplateRef): FleetLaunchTemplateSpecificationRequest => ({
  // The API takes the id or the name, never both; the id survives a template rename.
  ...(ref.id ? { LaunchTemplateId: ref.id } : { LaunchTemplateName: ref.name }),
  Version: ref.version ?? DEFAULT_TEMPLATE_VERSION,
})

/** A subnet already fixes the zone; the zone alone is given only for groups without subnets. */
const toFleetOverride = (override: FleetOverride): FleetLaunchTemplateOverridesRequest => ({
  InstanceType: override.instanceType as _InstanceType,
  ...(override.subnetId ? { SubnetId: override.subnetId } : { AvailabilityZone: override.zone }),
  Priority: override.priority,
})

/**
 * One launch template config per template: the request's for most overrides, an override's own for the
 * types a MixedInstancesPolicy launches from another template (an arm64 type and its arm64 image), in the
 * order the overrides first name them. Priorities stay global, so the fleet ranks across configs.
 */
const launchTemplateConfigs = (
  request: SpotLaunchRequest,
  template: FleetLaunchTemplateSpecificationRequest,
): FleetLaunchTemplateConfigRequest[] => {
  const configs = new Map<
    string,
    FleetLaunchTemplateConfigRequest & { Overrides: FleetLaunchTemplateOverridesRequest[] }
  >()
  for (const override of request.overrides) {
    const spec = override.launchTemplate === undefined ? template : fleetTemplate(override.launchTemplate)
    const key = JSON.stringify([spec.LaunchTemplateId, spec.LaunchTemplateName, spec.Version])
    let config = configs.get(key)
    if (config === undefined) {
      config = { LaunchTemplateSpecification: spec, Overrides: [] }
      configs.set(key, config)
    }
    config.Overrides.push(toFleetOverride(override))
  }
  return [...configs.values()]
}

export const fleetRequest = (
  request: SpotLaunchRequest,
  template: FleetLaunchTemplateSpecificationRequest,
): CreateFleetCommandInput => {
  const tags: Tag[] = Object.entries(request.tags).map(([Key, Value]) => ({ Key, Value }))
  return {
    Type: 'instant',
    ClientToken: request.clientToken,
    TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' },
    SpotOptions: { AllocationStrategy: ALLOCATION_STRATEGIES[request.allocationStrategy] },
    LaunchTemplateConfigs: launchTemplateConfigs(request, template),
    // An instant fleet takes tag specifications for `instance` and `fleet` only (CreateFleet,
    // https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreateFleet.html): volumes and network
    // interfaces get their tags from the launch template. The fleet carries the same tags because the
    // replacer's role may create a fleet only with spotswap's request tags (lib/permissions.ts).
    ...(tags.length > 0
      ? {
          TagSpecifications: [
            { ResourceType: 'instance', Tags: tags },
            { ResourceType: 'fleet', Tags: tags },
          ],
        }
      : {}),
  }
}

/** The fleet may name only the subnet it used; the request's override for that subnet knows the zone. */
const zoneOfLaunch = (
  request: SpotLaunchRequest,
  instanceType: string,
  subnetId: string | undefined,
): string => {
  const candidates = request.overrides.filter((o) => subnetId === undefined || o.subnetId === subnetId)
  const match = candidates.find((o) => o.instanceType === instanceType) ?? candidates[0]
  return match?.zone ?? ''
}

export const toLaunchResult = (
  response: CreateFleetCommandOutput,
  request: SpotLaunchRequest,
): SpotLaunchResult => {
  for (const launched of response.Instances ?? []) {
    const instanceId = launched.InstanceIds?.[0]
    if (!instanceId) continue
    const override = launched.LaunchTemplateAndOverrides?.Overrides
    const instanceType = launched.InstanceType ?? override?.InstanceType ?? ''
    const zone = override?.AvailabilityZone ?? zoneOfLaunch(request, instanceType, override?.SubnetId)
    // A launch-configuration group's temporary template is deleted after the launch: its id is recorded
    // (core/group/provenance.ts). From the answer, which a repeated client token replays with the first template.
    const template = launched.LaunchTemplateAndOverrides?.LaunchTemplateSpecification?.LaunchTemplateId
    const temporary = request.launchTemplate === undefined && template !== undefined
    return { ok: true, instanceId, instanceType, zone, ...(temporary ? { launchTemplateId: template } : {}) }
  }
  const errors = (response.Errors ?? []).map((error) => ({
    instanceType: error.LaunchTemplateAndOverrides?.Overrides?.InstanceType,
    code: error.ErrorCode ?? 'Unknown',
    message: error.ErrorMessage ?? '',
  }))
  if (errors.length > 0) return { ok: false, errors }
  return {
    ok: false,
    errors: [
      {
        instanceType: undefined,
        code: 'NoInstanceLaunched',
        message: 'CreateFleet returned no instance and no error',
      },
    ],
  }
}

const createFleet = async (
  ctx: AwsContext,
  request: SpotLaunchRequest,
  template: FleetLaunchTemplateSpecificationRequest,
): Promise<SpotLaunchResult> => {
  try {
    const response = await ctx.call('ec2:CreateFleet', () =>
      ctx.ec2.createFleet(fleetRequest(request, template)),
    )
    const result = toLaunchResult(response, request)
    // An answer that does not name the template: the temporary one this request used.
    const temporary = request.launchTemplate === undefined ? template.LaunchTemplateId : undefined
    return result.ok && result.launchTemplateId === undefined && temporary !== undefined
      ? { ...result, launchTemplateId: temporary }
      : result
  } catch (error) {
    // Capacity or the Spot quota can also refuse the request as a whole; to the caller it is the same outcome.
    if (!isCapacityError(error) && !isQuotaError(error)) throw error
    return {
      ok: false,
      errors: [{ instanceType: undefined, code: errorCode(error), message: errorMessage(error) }],
    }
  }
}

export const launchSpot = (ctx: AwsContext, request: SpotLaunchRequest): Promise<SpotLaunchResult> => {
  if (request.launchTemplate !== undefined)
    return createFleet(ctx, request, fleetTemplate(request.launchTemplate))
  if (request.launchConfigurationName !== undefined) {
    return withTemporaryTemplate(
      ctx,
      request.groupName,
      request.launchConfigurationName,
      request.clientToken,
      (template) => createFleet(ctx, request, template),
    )
  }
  return Promise.reject(new MissingLaunchSourceError(request.groupName))
}
