/**
 * Seed builders and readers for a moto account, written with the plain SDK so they share no code with the
 * adapters under test. They read endpoint, credentials and region from the environment that
 * `freshAccountPerTest` / `withMotoEnv` set, and refuse to run against anything but this run's moto.
 */
import {
  CreateAutoScalingGroupCommand,
  CreateLaunchConfigurationCommand,
  DescribeAutoScalingGroupsCommand,
  PutLifecycleHookCommand,
} from '@aws-sdk/client-auto-scaling'
import {
  type _InstanceType,
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DescribeAvailabilityZonesCommand,
  type EC2Client,
  type Instance as Ec2Instance,
  paginateDescribeInstances,
} from '@aws-sdk/client-ec2'
import { autoScaling, ec2, type Lifecycle, lifecycleOf, motoRegion, required, tagsOf } from './clients.ts'

/** amzn2-ami-hvm-2.0.20180810-x86_64-gp2: Linux/UNIX x86_64, in moto's bundled AMI list for every region. */
export const SEED_IMAGE_ID = 'ami-04681a1dbd79675a5'
export const SEED_INSTANCE_TYPE = 'm5.large'
/** Enough zones for zone-balancing decisions to matter (fewer where a region has fewer, e.g. us-west-1). */
const ZONES_PER_NETWORK = 3

/** The SDK's closed union lags behind the instance types AWS (and moto) know; any name is worth sending. */
const asInstanceType = (name: string): _InstanceType => name as _InstanceType

export interface Network {
  readonly region: string
  readonly vpcId: string
  readonly subnets: readonly { readonly id: string; readonly zone: string }[]
}

export interface GroupSeed {
  readonly name: string
  readonly desired: number
  readonly min: number
  readonly max: number
  /** Group tags, all PropagateAtLaunch. */
  readonly tags?: Readonly<Record<string, string>>
  /** @default SEED_INSTANCE_TYPE */
  readonly instanceType?: string
  /** @default 'template' */
  readonly launch?: 'template' | 'configuration'
  /** Seconds; moto stores 0 as 300. @default left to the service */
  readonly healthCheckGracePeriod?: number
  /** Adds an autoscaling:EC2_INSTANCE_TERMINATING hook (moto stores it but never waits on it). */
  readonly terminationHook?: boolean
  /** Target groups the group registers its instances with (TargetGroupARNs). */
  readonly targetGroupArns?: readonly string[]
  /** Classic load balancers the group registers its instances with (LoadBalancerNames). */
  readonly loadBalancerNames?: readonly string[]
  /** @default a new network in the group's region */
  readonly network?: Network
  /** @default AWS_REGION */
  readonly region?: string
}

export interface SeededGroup {
  readonly name: string
  readonly region: string
  readonly network: Network
  readonly launchTemplate: { readonly id: string; readonly name: string } | undefined
  readonly launchConfigurationName: string | undefined
  readonly terminationHookName: string | undefined
}

export interface MemberState {
  readonly id: string
  readonly lifecycleState: string
  readonly lifecycle: Lifecycle
  readonly type: string
}

export interface GroupState {
  readonly desired: number
  readonly min: number
  readonly max: number
  readonly tags: Readonly<Record<string, string>>
  readonly members: readonly MemberState[]
}

export interface WorldInstance {
  readonly id: string
  readonly type: string
  readonly lifecycle: Lifecycle
  readonly state: string
  readonly zone: string
  readonly subnetId: string | undefined
  readonly tags: Readonly<Record<string, string>>
}

/** A VPC with one subnet in each of the region's first three zones (by name). */
export const createNetwork = async (region?: string): Promise<Network> => {
  const where = motoRegion(region)
  const client = ec2(where)
  const zones = await client.send(new DescribeAvailabilityZonesCommand({}))
  const zoneNames = (zones.AvailabilityZones ?? [])
    .flatMap((zone) => (zone.ZoneName === undefined ? [] : [zone.ZoneName]))
    .sort()
    .slice(0, ZONES_PER_NETWORK)
  const vpc = await client.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/16' }))
  const vpcId = required(vpc.Vpc?.VpcId, 'VpcId')
  const subnets = []
  for (const [index, zone] of zoneNames.entries()) {
    const subnet = await client.send(
      new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: `10.0.${index}.0/24`, AvailabilityZone: zone }),
    )
    subnets.push({ id: required(subnet.Subnet?.SubnetId, 'SubnetId'), zone })
  }
  return { region: where, vpcId, subnets }
}

export const createLaunchTemplate = async (options: {
  readonly name: string
  readonly instanceType?: string
  readonly imageId?: string
  readonly region?: string
}): Promise<{ readonly id: string; readonly name: string }> => {
  const created = await ec2(options.region).send(
    new CreateLaunchTemplateCommand({
      LaunchTemplateName: options.name,
      LaunchTemplateData: {
        ImageId: options.imageId ?? SEED_IMAGE_ID,
        InstanceType: asInstanceType(options.instanceType ?? SEED_INSTANCE_TYPE),
      },
    }),
  )
  return { id: required(created.LaunchTemplate?.LaunchTemplateId, 'LaunchTemplateId'), name: options.name }
}

/** An Auto Scaling group launched from a new launch template or launch configuration, already at `desired`. */
export const createGroup = async (seed: GroupSeed): Promise<SeededGroup> => {
  const region = motoRegion(seed.region)
  const network = seed.network ?? (await createNetwork(region))
  const instanceType = seed.instanceType ?? SEED_INSTANCE_TYPE
  const client = autoScaling(region)
  const byTemplate = (seed.launch ?? 'template') === 'template'
  const launchTemplate = byTemplate
    ? await createLaunchTemplate({ name: `${seed.name}-lt`, instanceType, region })
    : undefined
  const launchConfigurationName = byTemplate ? undefined : `${seed.name}-lc`
  if (launchConfigurationName !== undefined) {
    await client.send(
      new CreateLaunchConfigurationCommand({
        LaunchConfigurationName: launchConfigurationName,
        ImageId: SEED_IMAGE_ID,
        InstanceType: instanceType,
      }),
    )
  }
  await client.send(
    new CreateAutoScalingGroupCommand({
      AutoScalingGroupName: seed.name,
      MinSize: seed.min,
      MaxSize: seed.max,
      DesiredCapacity: seed.desired,
      ...(launchTemplate
        ? { LaunchTemplate: { LaunchTemplateId: launchTemplate.id, Version: '$Latest' } }
        : {}),
      ...(launchConfigurationName ? { LaunchConfigurationName: launchConfigurationName } : {}),
      VPCZoneIdentifier: network.subnets.map((subnet) => subnet.id).join(','),
      ...(seed.healthCheckGracePeriod === undefined
        ? {}
        : { HealthCheckGracePeriod: seed.healthCheckGracePeriod }),
      ...(seed.targetGroupArns === undefined ? {} : { TargetGroupARNs: [...seed.targetGroupArns] }),
      ...(seed.loadBalancerNames === undefined ? {} : { LoadBalancerNames: [...seed.loadBalancerNames] }),
      Tags: Object.entries(seed.tags ?? {}).map(([Key, Value]) => ({ Key, Value, PropagateAtLaunch: true })),
    }),
  )
  const terminationHookName = seed.terminationHook ? `${seed.name}-drain` : undefined
  if (terminationHookName !== undefined) {
    await client.send(
      new PutLifecycleHookCommand({
        AutoScalingGroupName: seed.name,
        LifecycleHookName: terminationHookName,
        LifecycleTransition: 'autoscaling:EC2_INSTANCE_TERMINATING',
        HeartbeatTimeout: 300,
        DefaultResult: 'CONTINUE',
      }),
    )
  }
  return { name: seed.name, region, network, launchTemplate, launchConfigurationName, terminationHookName }
}

/** Spot instances from an instant fleet, outside any group (e.g. a replacement not yet attached). */
export const createSpotInstances = async (options: {
  readonly launchTemplateId: string
  readonly subnetId: string
  readonly count?: number
  readonly instanceType?: string
  readonly tags?: Readonly<Record<string, string>>
  readonly region?: string
}): Promise<string[]> => {
  const fleet = await ec2(options.region).send(
    new CreateFleetCommand({
      Type: 'instant',
      LaunchTemplateConfigs: [
        {
          LaunchTemplateSpecification: { LaunchTemplateId: options.launchTemplateId, Version: '$Latest' },
          Overrides: [
            {
              InstanceType: asInstanceType(options.instanceType ?? SEED_INSTANCE_TYPE),
              SubnetId: options.subnetId,
            },
          ],
        },
      ],
      TargetCapacitySpecification: {
        TotalTargetCapacity: options.count ?? 1,
        DefaultTargetCapacityType: 'spot',
      },
      // moto answers HTTP 500 without an allocation strategy.
      SpotOptions: { AllocationStrategy: 'capacity-optimized' },
      ...(options.tags === undefined
        ? {}
        : {
            TagSpecifications: [
              {
                ResourceType: 'instance',
                Tags: Object.entries(options.tags).map(([Key, Value]) => ({ Key, Value })),
              },
            ],
          }),
    }),
  )
  return (fleet.Instances ?? []).flatMap((launched) => launched.InstanceIds ?? [])
}

const describeInstances = async (client: EC2Client, ids?: readonly string[]): Promise<Ec2Instance[]> => {
  const found: Ec2Instance[] = []
  const input = ids === undefined ? {} : { InstanceIds: [...ids] }
  for await (const page of paginateDescribeInstances({ client }, input)) {
    for (const reservation of page.Reservations ?? []) found.push(...(reservation.Instances ?? []))
  }
  return found
}

export const groupState = async (name: string, region?: string): Promise<GroupState> => {
  const where = motoRegion(region)
  const described = await autoScaling(where).send(
    new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [name] }),
  )
  const group = required(described.AutoScalingGroups?.[0], `group ${name}`)
  const memberIds = (group.Instances ?? []).flatMap((member) =>
    member.InstanceId ? [member.InstanceId] : [],
  )
  const instances = memberIds.length === 0 ? [] : await describeInstances(ec2(where), memberIds)
  const byId = new Map(instances.map((instance) => [instance.InstanceId, instance]))
  return {
    desired: required(group.DesiredCapacity, 'DesiredCapacity'),
    min: required(group.MinSize, 'MinSize'),
    max: required(group.MaxSize, 'MaxSize'),
    tags: tagsOf(group.Tags),
    members: (group.Instances ?? []).map((member) => {
      const instance = byId.get(member.InstanceId)
      return {
        id: required(member.InstanceId, 'InstanceId'),
        lifecycleState: required(member.LifecycleState, 'LifecycleState'),
        lifecycle: lifecycleOf(required(instance, `instance ${member.InstanceId}`)),
        type: required(member.InstanceType ?? instance?.InstanceType, 'InstanceType'),
      }
    }),
  }
}

/**
 * Pending and running instances, in groups or not. Lifecycle is read per instance: moto fails the
 * `instance-lifecycle` filter, so nothing here filters server-side on it.
 */
export const allInstances = async (region?: string): Promise<WorldInstance[]> => {
  const instances = await describeInstances(ec2(motoRegion(region)))
  return instances
    .filter((instance) => instance.State?.Name === 'pending' || instance.State?.Name === 'running')
    .map((instance) => ({
      id: required(instance.InstanceId, 'InstanceId'),
      type: required(instance.InstanceType, 'InstanceType'),
      lifecycle: lifecycleOf(instance),
      state: required(instance.State?.Name, 'State'),
      zone: required(instance.Placement?.AvailabilityZone, 'AvailabilityZone'),
      subnetId: instance.SubnetId,
      tags: tagsOf(instance.Tags),
    }))
}
