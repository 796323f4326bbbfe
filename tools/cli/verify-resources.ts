/**
 * What `spotswap verify` creates in the user's account: a launch template, a small Auto Scaling group and,
 * only when asked, an internal Application Load Balancer with its target group. Every resource carries
 * VERIFY_RUN_TAG = <run id>, and every name starts with VERIFY_PREFIX, so `verify --cleanup` finds it.
 */
import { CreateAutoScalingGroupCommand } from '@aws-sdk/client-auto-scaling'
import {
  type _InstanceType,
  CreateLaunchTemplateCommand,
  DescribeImagesCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
} from '@aws-sdk/client-ec2'
import {
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  CreateTargetGroupCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2'
import type { VerifyClients } from './verify-clients.ts'

export const VERIFY_RUN_TAG = 'spotswap:verify-run'
export const VERIFY_PREFIX = 'spotswap-verify-'
/** Run ids fit a load balancer's name (32 characters at most) after VERIFY_PREFIX. */
export const RUN_ID_PATTERN = /^[a-z0-9]{1,12}$/

export const groupNameOf = (runId: string): string => `${VERIFY_PREFIX}${runId}`

/** The group's size: two members to swap, room above them for the swap's +1 and a backfill. */
export const VERIFY_GROUP_SIZE = { min: 0, desired: 2, max: 4 } as const
/**
 * Seconds Auto Scaling waits before it checks a new member's health: short, so the replacer sees a
 * replacement serve within a few of verify's runs (an instance boots in well under a minute).
 */
export const VERIFY_GRACE_SECONDS = 60

export interface Subnet {
  readonly id: string
  readonly zone: string
  readonly vpcId: string
}

export class VerifySetupError extends Error {
  override readonly name = 'VerifySetupError'
}

const toSubnet = (s: { SubnetId?: string; AvailabilityZone?: string; VpcId?: string }): Subnet[] =>
  s.SubnetId && s.AvailabilityZone && s.VpcId
    ? [{ id: s.SubnetId, zone: s.AvailabilityZone, vpcId: s.VpcId }]
    : []

/** The default VPC's default subnets, one per zone, or the subnets named with --subnet. */
export const findSubnets = async (clients: VerifyClients, named: readonly string[]): Promise<Subnet[]> => {
  if (named.length > 0) {
    const answer = await clients.ec2.send(new DescribeSubnetsCommand({ SubnetIds: [...named] }))
    const subnets = (answer.Subnets ?? []).flatMap(toSubnet)
    if (new Set(subnets.map((s) => s.vpcId)).size > 1)
      throw new VerifySetupError('the subnets given with --subnet are in more than one VPC')
    return subnets
  }
  const vpcs = await clients.ec2.send(
    new DescribeVpcsCommand({ Filters: [{ Name: 'is-default', Values: ['true'] }] }),
  )
  const vpcId = vpcs.Vpcs?.[0]?.VpcId
  if (vpcId === undefined)
    throw new VerifySetupError(`no default VPC in ${clients.region}: name subnets with --subnet`)
  // Each default subnet is the default for its zone (https://docs.aws.amazon.com/vpc/latest/userguide/default-vpc.html).
  const answer = await clients.ec2.send(
    new DescribeSubnetsCommand({
      Filters: [
        { Name: 'vpc-id', Values: [vpcId] },
        { Name: 'default-for-az', Values: ['true'] },
      ],
    }),
  )
  return (answer.Subnets ?? [])
    .flatMap(toSubnet)
    .sort((a, b) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0))
}

/**
 * The newest Amazon Linux 2023 image for x86_64, owned by Amazon. Its standard images are named
 * `al2023-ami-2023.<version>-kernel-<kernel>-x86_64`
 * (https://docs.aws.amazon.com/linux/al2023/ug/naming-and-versioning.html); `minimal` images are not.
 */
export const latestAmazonLinux = async (clients: VerifyClients): Promise<string> => {
  const answer = await clients.ec2.send(
    new DescribeImagesCommand({
      Owners: ['amazon'],
      Filters: [
        { Name: 'name', Values: ['al2023-ami-2023.*-x86_64'] },
        { Name: 'architecture', Values: ['x86_64'] },
        { Name: 'state', Values: ['available'] },
      ],
    }),
  )
  const newest = (answer.Images ?? [])
    .filter((image) => image.ImageId !== undefined)
    .sort((a, b) =>
      `${b.CreationDate ?? ''} ${b.Name ?? ''}`.localeCompare(
        `${a.CreationDate ?? ''} ${a.Name ?? ''}`,
        'en',
      ),
    )[0]
  if (newest?.ImageId === undefined)
    throw new VerifySetupError(`no Amazon Linux 2023 x86_64 image found in ${clients.region}`)
  return newest.ImageId
}

const runTags = (runId: string, extra: Readonly<Record<string, string>> = {}) =>
  Object.entries({ [VERIFY_RUN_TAG]: runId, ...extra }).map(([Key, Value]) => ({ Key, Value }))

/** Serves HTTP on port 80, so a target group's health check passes once the instance has booted. */
const WEB_SERVER_USER_DATA = Buffer.from(
  '#!/bin/bash\nmkdir -p /srv/www && echo ok > /srv/www/index.html\ncd /srv/www && nohup python3 -m http.server 80 &\n',
).toString('base64')

export const createLaunchTemplate = async (
  clients: VerifyClients,
  runId: string,
  options: { readonly instanceType: string; readonly imageId: string; readonly webServer: boolean },
): Promise<string> => {
  const created = await clients.ec2.send(
    new CreateLaunchTemplateCommand({
      LaunchTemplateName: groupNameOf(runId),
      LaunchTemplateData: {
        ImageId: options.imageId,
        InstanceType: options.instanceType as _InstanceType,
        ...(options.webServer ? { UserData: WEB_SERVER_USER_DATA } : {}),
        TagSpecifications: [{ ResourceType: 'instance', Tags: runTags(runId) }],
      },
      TagSpecifications: [{ ResourceType: 'launch-template', Tags: runTags(runId) }],
    }),
  )
  const id = created.LaunchTemplate?.LaunchTemplateId
  if (id === undefined) throw new VerifySetupError('CreateLaunchTemplate returned no id')
  return id
}

export interface LoadBalancer {
  readonly loadBalancerArn: string
  readonly targetGroupArn: string
}

/**
 * An internal Application Load Balancer (never reachable from the internet) in two zones at least, as
 * ALB requires (https://docs.aws.amazon.com/elasticloadbalancing/latest/application/application-load-balancers.html#subnets-load-balancer),
 * forwarding port 80 to the group's target group.
 */
export const createLoadBalancer = async (
  clients: VerifyClients,
  runId: string,
  subnets: readonly Subnet[],
): Promise<LoadBalancer> => {
  const zones = new Set(subnets.map((s) => s.zone))
  if (zones.size < 2)
    throw new VerifySetupError('--with-load-balancer needs subnets in two Availability Zones at least')
  const name = groupNameOf(runId)
  const group = await clients.elbv2.send(
    new CreateTargetGroupCommand({
      Name: name,
      Protocol: 'HTTP',
      Port: 80,
      VpcId: subnets[0]?.vpcId,
      TargetType: 'instance',
      HealthCheckPath: '/',
      HealthCheckIntervalSeconds: 10,
      HealthyThresholdCount: 2,
      Tags: runTags(runId),
    }),
  )
  const targetGroupArn = group.TargetGroups?.[0]?.TargetGroupArn
  if (targetGroupArn === undefined) throw new VerifySetupError('CreateTargetGroup returned no ARN')
  const balancer = await clients.elbv2.send(
    new CreateLoadBalancerCommand({
      Name: name,
      Type: 'application',
      Scheme: 'internal',
      Subnets: subnets.map((s) => s.id),
      Tags: runTags(runId),
    }),
  )
  const loadBalancerArn = balancer.LoadBalancers?.[0]?.LoadBalancerArn
  if (loadBalancerArn === undefined) throw new VerifySetupError('CreateLoadBalancer returned no ARN')
  await clients.elbv2.send(
    new CreateListenerCommand({
      LoadBalancerArn: loadBalancerArn,
      Protocol: 'HTTP',
      Port: 80,
      DefaultActions: [{ Type: 'forward', TargetGroupArn: targetGroupArn }],
      Tags: runTags(runId),
    }),
  )
  return { loadBalancerArn, targetGroupArn }
}

/** The group spotswap is to convert: tagged like a group a user opts in, and with the run id. */
export const createGroup = async (
  clients: VerifyClients,
  runId: string,
  options: {
    readonly launchTemplateId: string
    readonly subnets: readonly Subnet[]
    readonly targetGroupArn: string | undefined
  },
): Promise<string> => {
  const name = groupNameOf(runId)
  await clients.autoScaling.send(
    new CreateAutoScalingGroupCommand({
      AutoScalingGroupName: name,
      MinSize: VERIFY_GROUP_SIZE.min,
      MaxSize: VERIFY_GROUP_SIZE.max,
      DesiredCapacity: VERIFY_GROUP_SIZE.desired,
      LaunchTemplate: { LaunchTemplateId: options.launchTemplateId, Version: '$Latest' },
      VPCZoneIdentifier: options.subnets.map((s) => s.id).join(','),
      HealthCheckGracePeriod: VERIFY_GRACE_SECONDS,
      ...(options.targetGroupArn === undefined
        ? {}
        : { TargetGroupARNs: [options.targetGroupArn], HealthCheckType: 'ELB' }),
      Tags: runTags(runId, { 'spot-enabled': 'true' }).map((tag) => ({ ...tag, PropagateAtLaunch: true })),
    }),
  )
  return name
}
