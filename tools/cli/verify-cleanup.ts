/**
 * Finding and deleting what `spotswap verify` created, by its run tag: at the end of a run, and with
 * `verify --cleanup` after a run that was interrupted. Each pass deletes what it finds; a resource still
 * in use (a target group behind a load balancer being deleted) goes in a later pass, within a deadline.
 */
import { DeleteAutoScalingGroupCommand, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling'
import {
  DeleteLaunchTemplateCommand,
  DescribeLaunchTemplatesCommand,
  type Filter,
  type Instance,
  paginateDescribeInstances,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2'
import {
  DeleteLoadBalancerCommand,
  DeleteTargetGroupCommand,
  DescribeLoadBalancersCommand,
  DescribeTagsCommand,
  DescribeTargetGroupsCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2'
import { errorCode, errorMessage, isNotFound } from '../../lambdas/aws/errors.ts'
import type { VerifyClients } from './verify-clients.ts'
import { deleteRunKey, runKeysOf } from './verify-key.ts'
import { groupNameOf, VERIFY_PREFIX, VERIFY_RUN_TAG } from './verify-resources.ts'

export interface Leftovers {
  readonly groups: readonly string[]
  readonly launchTemplates: readonly string[]
  readonly instances: readonly string[]
  readonly loadBalancers: readonly string[]
  readonly targetGroups: readonly string[]
  /** The run's marker keys, by alias (verify-key.ts). */
  readonly markerKeys: readonly string[]
}

export const leftoverCount = (found: Leftovers): number =>
  found.groups.length +
  found.launchTemplates.length +
  found.instances.length +
  found.loadBalancers.length +
  found.targetGroups.length +
  found.markerKeys.length

export const leftoverText = (found: Leftovers): string =>
  (Object.entries(found) as [string, readonly string[]][])
    .filter(([, ids]) => ids.length > 0)
    .map(([kind, ids]) => `${kind}: ${ids.join(', ')}`)
    .join('; ')

/** One run's tag, or any run's when no run id is given. */
const tagFilter = (runId: string | undefined): Filter =>
  runId === undefined
    ? { Name: 'tag-key', Values: [VERIFY_RUN_TAG] }
    : { Name: `tag:${VERIFY_RUN_TAG}`, Values: [runId] }

/** The name verify gives what it creates (verify-resources.ts), of this run when one is named. */
const isVerifyName = (name: string | undefined, runId: string | undefined): boolean =>
  name !== undefined && (runId === undefined ? name.startsWith(VERIFY_PREFIX) : name === groupNameOf(runId))

const groupsOf = async (clients: VerifyClients, runId: string | undefined): Promise<string[]> => {
  const answer = await clients.autoScaling.send(
    new DescribeAutoScalingGroupsCommand({ Filters: [tagFilter(runId)], MaxRecords: 100 }),
  )
  return (answer.AutoScalingGroups ?? []).flatMap((g) =>
    isVerifyName(g.AutoScalingGroupName, runId) ? [g.AutoScalingGroupName as string] : [],
  )
}

/**
 * Running or stopped instances of the run, each proven to be one by what its owner cannot forge: a member of
 * a verify group (`aws:autoscaling:groupName`, which only Auto Scaling writes), an instance of one of the
 * run's launch templates (`aws:ec2launchtemplate:id`, EC2's), or a spot instance in no group launched for a
 * verify group, which the deployed replacer would terminate as a stray too. Tags alone prove nothing: a
 * production instance someone tagged `spotswap:verify-run` is left alone.
 */
const instancesOf = async (
  clients: VerifyClients,
  runId: string | undefined,
  templates: ReadonlySet<string>,
): Promise<string[]> => {
  const live = { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] }
  const launchedFor = {
    Name: 'tag:launched-for-asg',
    Values: [runId === undefined ? `${VERIFY_PREFIX}*` : `${VERIFY_PREFIX}${runId}`],
  }
  const ids = new Set<string>()
  for (const filter of [tagFilter(runId), launchedFor])
    for await (const page of paginateDescribeInstances({ client: clients.ec2 }, { Filters: [filter, live] }))
      for (const reservation of page.Reservations ?? [])
        for (const instance of reservation.Instances ?? [])
          if (instance.InstanceId && isRunInstance(instance, runId, templates)) ids.add(instance.InstanceId)
  return [...ids].sort()
}

const isRunInstance = (instance: Instance, runId: string | undefined, templates: ReadonlySet<string>) => {
  const tags = Object.fromEntries((instance.Tags ?? []).map((t) => [t.Key ?? '', t.Value ?? '']))
  const group = tags['aws:autoscaling:groupName']
  if (group !== undefined) return isVerifyName(group, runId)
  return (
    templates.has(tags['aws:ec2launchtemplate:id'] ?? '') ||
    (instance.InstanceLifecycle === 'spot' && isVerifyName(tags['launched-for-asg'], runId))
  )
}

const launchTemplatesOf = async (clients: VerifyClients, runId: string | undefined): Promise<string[]> => {
  const answer = await clients.ec2.send(new DescribeLaunchTemplatesCommand({ Filters: [tagFilter(runId)] }))
  return (answer.LaunchTemplates ?? []).flatMap((t) =>
    t.LaunchTemplateId && isVerifyName(t.LaunchTemplateName, runId) ? [t.LaunchTemplateId] : [],
  )
}

/** Elastic Load Balancing has no tag filter: candidates by name, kept when DescribeTags shows the run. */
const taggedArns = async (
  clients: VerifyClients,
  named: readonly { arn: string | undefined; name: string | undefined }[],
  runId: string | undefined,
): Promise<string[]> => {
  const arns = named.filter((n) => isVerifyName(n.name, runId)).flatMap((n) => (n.arn ? [n.arn] : []))
  const kept: string[] = []
  // DescribeTags takes at most 20 ARNs (https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_DescribeTags.html).
  for (let start = 0; start < arns.length; start += 20) {
    const answer = await clients.elbv2.send(
      new DescribeTagsCommand({ ResourceArns: arns.slice(start, start + 20) }),
    )
    for (const description of answer.TagDescriptions ?? []) {
      const tag = description.Tags?.find((t) => t.Key === VERIFY_RUN_TAG)
      if (tag && (runId === undefined || tag.Value === runId) && description.ResourceArn)
        kept.push(description.ResourceArn)
    }
  }
  return kept
}

const loadBalancersOf = async (clients: VerifyClients, runId: string | undefined) => {
  const answer = await clients.elbv2.send(new DescribeLoadBalancersCommand({}))
  const named = (answer.LoadBalancers ?? []).map((b) => ({
    arn: b.LoadBalancerArn,
    name: b.LoadBalancerName,
  }))
  return taggedArns(clients, named, runId)
}

const targetGroupsOf = async (clients: VerifyClients, runId: string | undefined) => {
  const answer = await clients.elbv2.send(new DescribeTargetGroupsCommand({}))
  const named = (answer.TargetGroups ?? []).map((g) => ({ arn: g.TargetGroupArn, name: g.TargetGroupName }))
  return taggedArns(clients, named, runId)
}

export const findLeftovers = async (
  clients: VerifyClients,
  runId: string | undefined,
): Promise<Leftovers> => {
  const launchTemplates = await launchTemplatesOf(clients, runId)
  return {
    groups: await groupsOf(clients, runId),
    launchTemplates,
    instances: await instancesOf(clients, runId, new Set(launchTemplates)),
    loadBalancers: await loadBalancersOf(clients, runId),
    targetGroups: await targetGroupsOf(clients, runId),
    markerKeys: (await runKeysOf(clients, runId)).map((k) => k.alias),
  }
}

/** Deletes what was found, in an order AWS accepts; returns why some deletions failed (tried again later). */
export const deleteLeftovers = async (clients: VerifyClients, found: Leftovers): Promise<string[]> => {
  const problems: string[] = []
  const attempt = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work()
    } catch (error) {
      if (!isNotFound(error)) problems.push(`${what}: ${errorCode(error)}: ${errorMessage(error)}`)
    }
  }
  // ForceDelete terminates the members without waiting for them to leave
  // (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_DeleteAutoScalingGroup.html).
  for (const group of found.groups)
    await attempt(group, () =>
      clients.autoScaling.send(
        new DeleteAutoScalingGroupCommand({ AutoScalingGroupName: group, ForceDelete: true }),
      ),
    )
  if (found.instances.length > 0)
    await attempt(found.instances.join(','), () =>
      clients.ec2.send(new TerminateInstancesCommand({ InstanceIds: [...found.instances] })),
    )
  for (const id of found.launchTemplates)
    await attempt(id, () => clients.ec2.send(new DeleteLaunchTemplateCommand({ LaunchTemplateId: id })))
  // Deleting a load balancer deletes its listeners; its target group can go once nothing uses it.
  for (const arn of found.loadBalancers)
    await attempt(arn, () => clients.elbv2.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: arn })))
  for (const arn of found.targetGroups)
    await attempt(arn, () => clients.elbv2.send(new DeleteTargetGroupCommand({ TargetGroupArn: arn })))
  // Last: a key still signs markers while the handlers may run; it is found again by its alias.
  if (found.markerKeys.length > 0)
    for (const key of await runKeysOf(clients, undefined))
      if (found.markerKeys.includes(key.alias)) await attempt(key.alias, () => deleteRunKey(clients, key))
  return problems
}

export interface CleanupClock {
  readonly now: () => Date
  readonly sleep: (ms: number) => Promise<void>
}

/** Seconds between cleanup passes: a group's ForceDelete and a load balancer's deletion take a minute or so. */
export const CLEANUP_PASS_WAIT_MS = 15_000

export interface CleanupResult {
  readonly deleted: Leftovers
  readonly remaining: Leftovers
  readonly problems: readonly string[]
}

const merge = (a: Leftovers, b: Leftovers): Leftovers => {
  const union = (x: readonly string[], y: readonly string[]) => [...new Set([...x, ...y])].sort()
  return {
    groups: union(a.groups, b.groups),
    launchTemplates: union(a.launchTemplates, b.launchTemplates),
    instances: union(a.instances, b.instances),
    loadBalancers: union(a.loadBalancers, b.loadBalancers),
    targetGroups: union(a.targetGroups, b.targetGroups),
    markerKeys: union(a.markerKeys, b.markerKeys),
  }
}

const NOTHING: Leftovers = {
  groups: [],
  launchTemplates: [],
  instances: [],
  loadBalancers: [],
  targetGroups: [],
  markerKeys: [],
}

/** Passes until nothing of the run is left, or the deadline: what is left then is reported, not hidden. */
export const cleanUp = async (
  clients: VerifyClients,
  runId: string | undefined,
  clock: CleanupClock,
  deadline: Date,
): Promise<CleanupResult> => {
  let deleted = NOTHING
  let problems: string[] = []
  for (;;) {
    const found = await findLeftovers(clients, runId)
    if (leftoverCount(found) === 0) return { deleted, remaining: NOTHING, problems: [] }
    if (clock.now() >= deadline) return { deleted, remaining: found, problems }
    deleted = merge(deleted, found)
    problems = await deleteLeftovers(clients, found)
    await clock.sleep(CLEANUP_PASS_WAIT_MS)
  }
}
