/**
 * An instant EC2 Fleet of one spot instance: each override is a pool (type, zone); pools that are not
 * offered, priced above on-demand (the default maximum price) or out of capacity fail with EC2's codes,
 * and the allocation strategy picks among the rest. A repeated ClientToken returns the first answer, as
 * EC2's idempotency does.
 *
 * Strategy model: `lowest-price` takes the cheapest pool; `price-capacity-optimized` the cheapest among
 * the pools with the deepest capacity; `capacity-optimized-prioritized` the highest priority among the
 * deepest. Depth is the pool's capacity share (capacity.ts): 1 for a pool without a trace.
 */
import { TAG_LAUNCH_TEMPLATE_ID } from '../../lambdas/core/constants.ts'
import type { FleetOverride, SpotLaunchRequest, SpotLaunchResult } from '../../lambdas/core/port.ts'
import { launchInstance } from './ec2.ts'
import type { SimImage } from './scenario/types.ts'
import { type SimRegion, zoneOfSubnet } from './state.ts'
import type { World } from './world.ts'

/** What CreateFleet is asked, in the core's words: the overrides, the strategy, the tags and token, for a group. */
export type FleetRequest = Pick<
  SpotLaunchRequest,
  'groupName' | 'overrides' | 'allocationStrategy' | 'tags' | 'clientToken'
>

export interface Pool {
  readonly override: FleetOverride
  readonly zone: string
  readonly priceUsd: number
  readonly share: number
}

export type PoolCheck =
  | { readonly ok: true; readonly pool: Pool }
  | { readonly ok: false; readonly code: string; readonly message: string }

/**
 * Whether EC2 would launch a spot instance in the override's pool now, and at what price and depth.
 * `image` is the AMI the launch uses, when the caller models one.
 */
export const checkPool = (
  world: World,
  region: SimRegion,
  override: FleetOverride,
  image?: SimImage,
): PoolCheck => {
  const { instanceType } = override
  const zone = override.subnetId ? (zoneOfSubnet(override.subnetId) ?? override.zone) : override.zone
  const now = world.clock.now
  const info = world.catalog.get(instanceType)
  if (info === undefined)
    return { ok: false, code: 'InvalidParameterValue', message: `Invalid instance type: ${instanceType}` }
  // EC2 refuses an ENA-required type for an image without EnaSupport
  // (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/enhanced-networking-ena.html).
  if (image !== undefined && !image.enaSupport && info.platform.enaSupport === 'required')
    return {
      ok: false,
      code: 'InvalidParameterCombination',
      message: `Enhanced networking with the Elastic Network Adapter (ENA) is required for the '${instanceType}' instance type. Ensure that you are using an AMI that is enabled for ENA.`,
    }
  if (!region.zones.includes(zone))
    return { ok: false, code: 'InvalidParameterValue', message: `Invalid availability zone: ${zone}` }
  const priceUsd = region.market.spotPrice(instanceType, zone, now)
  if (priceUsd === undefined)
    return {
      ok: false,
      code: 'Unsupported',
      message: `Spot is not offered for ${instanceType} in ${zone}.`,
    }
  const onDemand = region.market.onDemandPrice(instanceType)
  if (onDemand !== undefined && priceUsd > onDemand)
    return {
      ok: false,
      code: 'SpotMaxPriceTooLow',
      message: `Your Spot request price of ${onDemand} is lower than the minimum required Spot request fulfillment price of ${priceUsd}.`,
    }
  const share = region.capacity.share(instanceType, zone, now)
  if (share <= 0)
    return {
      ok: false,
      code: 'InsufficientInstanceCapacity',
      message: `There is no Spot capacity available that matches your request (${instanceType} in ${zone}).`,
    }
  return { ok: true, pool: { override, zone, priceUsd, share } }
}

/**
 * A Nitro type shows EBS volumes as NVMe devices: an image without NVMe drivers launches there and never
 * boots (https://docs.aws.amazon.com/ebs/latest/userguide/nvme-ebs-volumes.html).
 */
const neverBoots = (world: World, image: SimImage | undefined, instanceType: string): boolean =>
  image !== undefined &&
  !image.nvmeDrivers &&
  world.catalog.get(instanceType)?.platform.ebsNvmeSupport === 'required'

/** Best pool first under an allocation strategy. */
export const byStrategy =
  (strategy: SpotLaunchRequest['allocationStrategy']) =>
  (a: Pool, b: Pool): number => {
    if (strategy === 'lowest-price')
      return a.priceUsd - b.priceUsd || a.override.priority - b.override.priority
    const deeper = b.share - a.share
    if (deeper !== 0) return deeper
    return strategy === 'capacity-optimized-prioritized'
      ? a.override.priority - b.override.priority || a.priceUsd - b.priceUsd
      : a.priceUsd - b.priceUsd || a.override.priority - b.override.priority
  }

/**
 * `templateId` is the launch template the fleet launches from: EC2 tags each instance launched from a
 * template with its id under `aws:ec2launchtemplate:id`
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/launch-instances-from-launch-template.html).
 * `temporary` when it is a template made for this launch (a launch-configuration group).
 */
export const createFleet = (
  world: World,
  region: SimRegion,
  request: FleetRequest,
  template: { readonly id: string | undefined; readonly temporary: boolean },
): SpotLaunchResult => {
  const earlier = region.fleetsByToken.get(request.clientToken)
  if (earlier !== undefined) return earlier
  const pools: Pool[] = []
  const errors: { instanceType: string | undefined; code: string; message: string }[] = []
  const group = region.groups.get(request.groupName)
  for (const override of request.overrides) {
    const check = checkPool(world, region, override, group?.image)
    if (check.ok) pools.push(check.pool)
    else errors.push({ instanceType: override.instanceType, code: check.code, message: check.message })
  }
  pools.sort(byStrategy(request.allocationStrategy))
  const chosen = pools[0]
  let result: SpotLaunchResult
  if (chosen === undefined) {
    result = {
      ok: false,
      errors:
        errors.length > 0
          ? errors
          : [
              {
                instanceType: undefined,
                code: 'InvalidParameterValue',
                message: 'The fleet has no overrides.',
              },
            ],
    }
    world.notify((o) => o.launchFailed?.(region.name, request.groupName))
  } else {
    const fraction = group?.unhealthyReplacementFraction ?? 0
    const instance = launchInstance(world, region, {
      type: chosen.override.instanceType,
      zone: chosen.zone,
      lifecycle: 'spot',
      tags:
        template.id === undefined ? request.tags : { ...request.tags, [TAG_LAUNCH_TEMPLATE_ID]: template.id },
      costGroup: request.groupName,
      origin: 'spotswap',
      // Drawn only for groups that ask for broken images, so other scenarios' runs stay as they were.
      neverHealthy:
        neverBoots(world, group?.image, chosen.override.instanceType) ||
        (fraction > 0 && world.random.health.chance(fraction)),
    })
    result = {
      ok: true,
      instanceId: instance.id,
      instanceType: instance.type,
      zone: instance.zone,
      ...(template.temporary && template.id !== undefined ? { launchTemplateId: template.id } : {}),
    }
  }
  region.fleetsByToken.set(request.clientToken, result)
  return result
}
