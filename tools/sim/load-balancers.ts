/**
 * Elastic Load Balancing as a group's traffic sees it: the target groups and classic load balancers of a
 * group, which Auto Scaling registers its members with and deregisters them from, and the health checks
 * that decide when a registered instance receives traffic. States are computed from timestamps when
 * asked; a clock event at each change touches the group so observers see it when it happens.
 *
 * - Auto Scaling registers an instance it launches as it puts it InService, an attached one at once
 *   (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-lifecycle.html,
 *   https://docs.aws.amazon.com/autoscaling/ec2/userguide/attach-load-balancer-asg.html).
 * - A registered instance is `initial` until it passes `healthyThreshold` checks `interval` apart, counted
 *   from when it is both registered and booted; one with a broken image fails them and is `unhealthy`
 *   once it failed UNHEALTHY_THRESHOLD of them (https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_TargetHealth.html,
 *   "Instance has failed at least the UnhealthyThreshold number of health checks consecutively":
 *   https://docs.aws.amazon.com/elasticloadbalancing/2012-06-01/APIReference/API_InstanceState.html).
 * - Leaving the group (detach, termination, Terminating:Wait under a hook) deregisters it: it drains for
 *   the deregistration delay, then is no longer reported
 *   (https://docs.aws.amazon.com/autoscaling/ec2/userguide/lifecycle-hooks-overview.html). A classic load
 *   balancer reports a draining instance `InService` ("Instance deregistration currently in progress",
 *   https://docs.aws.amazon.com/elasticloadbalancing/latest/classic/config-conn-drain.html).
 * The groups use EC2 health checks (Auto Scaling's default), so a member failing the load balancer's
 * checks stays in the group.
 */
import { type TargetState, trafficSourceKey } from '../../lambdas/core/port.ts'
import { NO_TRAFFIC_SOURCES, type TrafficSources } from '../../lambdas/core/types.ts'
import { Priority } from './clock.ts'
import { BOOT_SECONDS, SIM_ACCOUNT_ID, UNHEALTHY_THRESHOLD } from './constants.ts'
import type { Registration, SimLoadBalancer } from './load-balancer-state.ts'
import { hash32 } from './rng.ts'
import type { LoadBalancerType, ScenarioLoadBalancer } from './scenario/types.ts'
import type { SimGroup, SimInstance, SimRegion } from './state.ts'
import type { World } from './world.ts'

/** Where an instance stands with a load balancer; each type reports it in its own words (below). */
type Phase = 'registering' | 'checking' | 'healthy' | 'unhealthy' | 'draining'

const STATES: Readonly<Record<LoadBalancerType, Readonly<Record<Phase, TargetState>>>> = {
  'target-group': {
    registering: { state: 'initial', reason: 'Elb.RegistrationInProgress' },
    checking: { state: 'initial', reason: 'Elb.InitialHealthChecking' },
    healthy: { state: 'healthy' },
    unhealthy: { state: 'unhealthy', reason: 'Target.FailedHealthChecks' },
    draining: { state: 'draining', reason: 'Target.DeregistrationInProgress' },
  },
  // DescribeInstanceHealth's ReasonCode: ELB (the load balancer's doing), Instance (the instance's), N/A.
  classic: {
    registering: { state: 'OutOfService', reason: 'ELB' },
    checking: { state: 'OutOfService', reason: 'ELB' },
    healthy: { state: 'InService', reason: 'N/A' },
    unhealthy: { state: 'OutOfService', reason: 'Instance' },
    draining: { state: 'InService', reason: 'ELB' },
  },
}

/** What DescribeTargetHealth says of an instance named but not registered. */
export const NOT_REGISTERED: TargetState = { state: 'unused', reason: 'Target.NotRegistered' }

const hex = (text: string, digits: number): string =>
  (hash32(text).toString(16).padStart(8, '0') + hash32(text, 0x9e3779b9).toString(16).padStart(8, '0')).slice(
    0,
    digits,
  )

/** Load balancer and target group names: at most 32 letters, digits and hyphens. */
const MAX_NAME = 32

/** `<group>-<n>`, made a valid name (with a hash of the group's name when it had to be changed). */
const balancerName = (group: string, n: number): string => {
  const suffix = `-${n}`
  const cleaned = group.replace(/[^A-Za-z0-9-]/g, '-').replace(/^-+|-+$/g, '')
  if (cleaned === group && cleaned.length + suffix.length <= MAX_NAME) return `${cleaned}${suffix}`
  const tagged = `-${hex(group, 6)}${suffix}`
  return `${cleaned.slice(0, MAX_NAME - tagged.length).replace(/-+$/, '')}${tagged}`.replace(/^-/, '')
}

/** The group's load balancers with stable ids: the n-th of its list is `<group>-<n>`. */
export const createLoadBalancers = (
  region: string,
  group: string,
  specs: readonly ScenarioLoadBalancer[],
): SimLoadBalancer[] =>
  specs.map((spec, i) => {
    const name = balancerName(group, i + 1)
    const id =
      spec.type === 'classic'
        ? name
        : `arn:aws:elasticloadbalancing:${region}:${SIM_ACCOUNT_ID}:targetgroup/${name}/${hex(`${region}/${group}/${i + 1}`, 16)}`
    return {
      type: spec.type,
      id,
      name,
      key: trafficSourceKey(spec.type, id),
      group,
      healthCheckIntervalSeconds: spec.healthCheckIntervalSeconds,
      healthyThreshold: spec.healthyThreshold,
      deregistrationDelaySeconds: spec.deregistrationDelaySeconds,
      targets: new Map(),
    }
  })

/** As DescribeAutoScalingGroups reports them (TargetGroupARNs, LoadBalancerNames). */
export const trafficSourcesOf = (balancers: readonly SimLoadBalancer[]): TrafficSources =>
  balancers.length === 0
    ? NO_TRAFFIC_SOURCES
    : {
        targetGroupArns: balancers.filter((b) => b.type === 'target-group').map((b) => b.id),
        classicLoadBalancerNames: balancers.filter((b) => b.type === 'classic').map((b) => b.id),
        unreadable: [],
      }

const phaseOf = (registration: Registration, nowMs: number): Phase | undefined => {
  if (registration.drainingUntilMs !== undefined)
    return nowMs < registration.drainingUntilMs ? 'draining' : undefined
  // A target that went offline fails its checks until it has passed healthyThreshold of them again.
  if (registration.offlineFromMs !== undefined && nowMs < registration.decidedMs) return 'unhealthy'
  if (nowMs < registration.checkedFromMs) return 'registering'
  if (nowMs < registration.decidedMs) return 'checking'
  return registration.healthy ? 'healthy' : 'unhealthy'
}

/** The instance's state in the load balancer now, in its type's words; undefined when not registered. */
export const targetState = (
  balancer: SimLoadBalancer,
  id: string,
  nowMs: number,
): TargetState | undefined => {
  const registration = balancer.targets.get(id)
  const phase = registration === undefined ? undefined : phaseOf(registration, nowMs)
  return phase === undefined ? undefined : STATES[balancer.type][phase]
}

const serves = (balancer: SimLoadBalancer, id: string, nowMs: number): boolean => {
  const registration = balancer.targets.get(id)
  return registration !== undefined && phaseOf(registration, nowMs) === 'healthy'
}

/** A member receives traffic: InService in the group, healthy in every load balancer of the group. */
export const isServing = (group: SimGroup, id: string, nowMs: number): boolean =>
  group.members.get(id)?.lifecycleState === 'InService' &&
  group.loadBalancers.every((balancer) => serves(balancer, id, nowMs))

/** Members receiving traffic (for a group without load balancers: its InService members). */
export const servingCount = (group: SimGroup, nowMs: number): number => {
  let count = 0
  for (const [id, member] of group.members)
    if (member.lifecycleState === 'InService' && group.loadBalancers.every((b) => serves(b, id, nowMs)))
      count++
  return count
}

/** Why a member does not serve: its lifecycle state, and its state in each load balancer holding it back. */
export const describeServing = (group: SimGroup, id: string, nowMs: number): string => {
  const parts = [group.members.get(id)?.lifecycleState ?? 'not a member']
  for (const balancer of group.loadBalancers) {
    if (serves(balancer, id, nowMs)) continue
    const state = targetState(balancer, id, nowMs)
    const where = `${balancer.type === 'classic' ? 'classic load balancer' : 'target group'} ${balancer.name}`
    parts.push(
      state === undefined
        ? `not registered in ${where}`
        : `${state.state} in ${where}${state.reason === undefined ? '' : ` (${state.reason})`}`,
    )
  }
  return parts.join('; ')
}

/** Touches the group at `atMs` if the registration is still the instance's then (it may have left since). */
const touchAt = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  balancer: SimLoadBalancer,
  id: string,
  registration: Registration,
  atMs: number,
  then?: () => void,
): void =>
  world.clock.schedule(atMs, Priority.transition, 'target health', () => {
    if (balancer.targets.get(id) !== registration) return
    then?.()
    region.touch(group)
  })

/** Auto Scaling registers the instance with every load balancer of its group; the health checks start. */
export const registerTargets = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  instance: SimInstance,
): void => {
  // While AddToLoadBalancer is suspended nothing is registered, not even after it resumes
  // (https://docs.aws.amazon.com/autoscaling/ec2/userguide/understand-how-suspending-processes-affects-other-processes.html).
  if (group.suspendedProcesses.has('AddToLoadBalancer')) return
  const now = world.clock.now
  const bootedMs = instance.state === 'pending' ? instance.launchMs + BOOT_SECONDS * 1000 : now
  for (const balancer of group.loadBalancers) {
    const checkedFromMs = Math.max(now, bootedMs)
    const registration: Registration = {
      registeredMs: now,
      checkedFromMs,
      decidedMs:
        checkedFromMs +
        balancer.healthCheckIntervalSeconds *
          (instance.neverHealthy ? UNHEALTHY_THRESHOLD : balancer.healthyThreshold) *
          1000,
      healthy: !instance.neverHealthy,
      drainingUntilMs: undefined,
    }
    balancer.targets.set(instance.id, registration)
    if (checkedFromMs > now) touchAt(world, region, group, balancer, instance.id, registration, checkedFromMs)
    touchAt(world, region, group, balancer, instance.id, registration, registration.decidedMs)
  }
}

/** An instance present at the start: registered and healthy long before. */
export const registerSettled = (group: SimGroup, instance: SimInstance): void => {
  for (const balancer of group.loadBalancers)
    balancer.targets.set(instance.id, {
      registeredMs: instance.launchMs,
      checkedFromMs: instance.launchMs,
      decidedMs: instance.launchMs,
      healthy: !instance.neverHealthy,
      drainingUntilMs: undefined,
    })
}

/**
 * The instance leaves the group's load balancers: it drains for their deregistration delay, then is gone.
 * One that never served (still checking, or failing its checks) has no connections, so its deregistration
 * completes at once ("If a deregistering target has no in-flight requests and no active connections,
 * Elastic Load Balancing immediately completes the deregistration process":
 * https://docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-target-groups.html#deregistration-delay).
 * Returns when the last of its registrations is gone (now when it had none).
 */
export const deregisterTargets = (world: World, region: SimRegion, group: SimGroup, id: string): number => {
  const now = world.clock.now
  let goneMs = now
  for (const balancer of group.loadBalancers) {
    const registration = balancer.targets.get(id)
    if (registration === undefined) continue
    if (registration.drainingUntilMs === undefined) {
      const served = registration.healthy && registration.decidedMs <= now
      registration.drainingUntilMs = served ? now + balancer.deregistrationDelaySeconds * 1000 : now
      touchAt(world, region, group, balancer, id, registration, registration.drainingUntilMs, () =>
        balancer.targets.delete(id),
      )
    }
    goneMs = Math.max(goneMs, registration.drainingUntilMs)
  }
  return goneMs
}

/**
 * The instance went offline and comes back at `backMs` (an EC2 scheduled reboot): it fails the checks
 * meanwhile and passes `healthyThreshold` of them again from then, as when it was first registered.
 */
export const recheckTargets = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  id: string,
  backMs: number,
): void => {
  for (const balancer of group.loadBalancers) {
    const known = balancer.targets.get(id)
    if (known === undefined || known.drainingUntilMs !== undefined) continue
    const registration: Registration = {
      ...known,
      offlineFromMs: world.clock.now,
      checkedFromMs: backMs,
      decidedMs: backMs + balancer.healthCheckIntervalSeconds * balancer.healthyThreshold * 1000,
    }
    balancer.targets.set(id, registration)
    touchAt(world, region, group, balancer, id, registration, world.clock.now)
    touchAt(world, region, group, balancer, id, registration, registration.decidedMs)
  }
}
