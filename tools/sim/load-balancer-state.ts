/**
 * What the simulator holds of one load balancer (a target group or a classic load balancer) and of each
 * instance registered with it; load-balancers.ts models how registrations turn healthy and drain.
 */
import type { LoadBalancerType } from './scenario/types.ts'

/** One instance's registration with one load balancer. */
export interface Registration {
  readonly registeredMs: number
  /** Registered and booted: the health checks start. */
  readonly checkedFromMs: number
  /** When the checks have decided: healthy, or unhealthy for an instance that never turns healthy. */
  readonly decidedMs: number
  readonly healthy: boolean
  /** Set when the instance went offline while registered (a scheduled reboot): unhealthy until decidedMs. */
  readonly offlineFromMs?: number
  /** Set on deregistration: draining until then, not reported after. */
  drainingUntilMs: number | undefined
}

export interface SimLoadBalancer {
  readonly type: LoadBalancerType
  /** A target group's ARN, a classic load balancer's name. */
  readonly id: string
  /** Its name (a target group's is inside its ARN). */
  readonly name: string
  /** trafficSourceKey(type, id): how the port and the engine name it. */
  readonly key: string
  readonly group: string
  readonly healthCheckIntervalSeconds: number
  readonly healthyThreshold: number
  readonly deregistrationDelaySeconds: number
  /** Instance id → its registration, draining ones included. */
  readonly targets: Map<string, Registration>
}
