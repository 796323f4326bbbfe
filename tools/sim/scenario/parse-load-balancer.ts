/**
 * A group's load balancers in a scenario: target groups and classic load balancers with their health
 * checks and deregistration delay, AWS's defaults and limits where a field is left out or out of range.
 */
import { type Checker, childPath, type Json } from './check.ts'
import type { LoadBalancerType, ScenarioLoadBalancer } from './types.ts'

export const LOAD_BALANCER_FIELDS = [
  'type',
  'healthCheckIntervalSeconds',
  'healthyThreshold',
  'deregistrationDelaySeconds',
] as const

export const LOAD_BALANCER_TYPES: readonly LoadBalancerType[] = ['target-group', 'classic']

/**
 * What AWS gives a load balancer whose owner sets nothing: an Application Load Balancer's target group
 * checks every 30 s and wants 5 successes, a classic load balancer 30 s and 10; both drain for 300 s
 * (https://docs.aws.amazon.com/elasticloadbalancing/latest/application/target-group-health-checks.html,
 * https://docs.aws.amazon.com/elasticloadbalancing/latest/classic/elb-healthchecks.html,
 * https://docs.aws.amazon.com/elasticloadbalancing/latest/classic/config-conn-drain.html).
 */
export const LOAD_BALANCER_DEFAULTS: Readonly<Record<LoadBalancerType, Omit<ScenarioLoadBalancer, 'type'>>> =
  {
    'target-group': { healthCheckIntervalSeconds: 30, healthyThreshold: 5, deregistrationDelaySeconds: 300 },
    classic: { healthCheckIntervalSeconds: 30, healthyThreshold: 10, deregistrationDelaySeconds: 300 },
  }

/** AWS's ranges: interval 5-300 s, healthy threshold 2-10, deregistration delay (draining) 0-3600 s. */
const INTERVAL_SECONDS = [5, 300] as const
const HEALTHY_THRESHOLD = [2, 10] as const
const DEREGISTRATION_DELAY_SECONDS = [0, 3600] as const
/** Auto Scaling's quota: 50 target groups and 50 classic load balancers per group. */
export const MAX_LOAD_BALANCERS = 50

const parseLoadBalancer = (check: Checker, path: string, raw: Json): ScenarioLoadBalancer | undefined => {
  const fields = check.object(path, raw, LOAD_BALANCER_FIELDS)
  if (fields === undefined) return undefined
  const type = check.oneOf(childPath(path, 'type'), fields.type, LOAD_BALANCER_TYPES)
  if (type === undefined) return undefined
  const defaults = LOAD_BALANCER_DEFAULTS[type]
  const read = (key: keyof typeof defaults, [min, max]: readonly [number, number]) =>
    fields[key] === undefined ? defaults[key] : check.integer(childPath(path, key), fields[key], min, max)
  const healthCheckIntervalSeconds = read('healthCheckIntervalSeconds', INTERVAL_SECONDS)
  const healthyThreshold = read('healthyThreshold', HEALTHY_THRESHOLD)
  const deregistrationDelaySeconds = read('deregistrationDelaySeconds', DEREGISTRATION_DELAY_SECONDS)
  if (
    healthCheckIntervalSeconds === undefined ||
    healthyThreshold === undefined ||
    deregistrationDelaySeconds === undefined
  )
    return undefined
  return { type, healthCheckIntervalSeconds, healthyThreshold, deregistrationDelaySeconds }
}

export const parseLoadBalancers = (
  check: Checker,
  path: string,
  raw: Json | undefined,
): ScenarioLoadBalancer[] => {
  if (raw === undefined) return []
  const entries = check.array(path, raw) ?? []
  if (entries.length > MAX_LOAD_BALANCERS)
    check.fail(path, `at most ${MAX_LOAD_BALANCERS} load balancers`, entries)
  return entries.flatMap((entry, i) => parseLoadBalancer(check, childPath(path, i), entry) ?? [])
}
