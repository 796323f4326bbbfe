/**
 * How long a replacement runs before it is attached in place of its partner.
 *
 * Auto Scaling applies a group's health check grace period to the instances attached to it as to those it
 * launches (https://docs.aws.amazon.com/autoscaling/ec2/userguide/health-check-grace-period.html), and a
 * load balancer routes to an attached instance only once it passes the health checks
 * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/attach-load-balancer-asg.html). So in a group whose
 * load balancers spotswap reads, a replacement is attached as soon as it runs: it boots inside the group
 * under the same grace period as the group's own launches, and its partner retires only once it serves in
 * every load balancer (core/group/serving.ts), as before.
 *
 * Without load balancers (or with a traffic source whose health spotswap cannot read), `InService` is all
 * "serves" can mean, and it comes at the attach: the partner would retire before its replacement booted.
 * There the grace period, the owner's statement of boot time, is waited out before the attach. A
 * GRACE_PERIOD setting is the owner's own attach wait and is honoured in every group.
 */

import { hasTrafficSources } from '../group/serving.ts'
import type { Group } from '../types.ts'

/** Seconds a replacement must have run (and be `running`) before its swap starts. */
export const attachWaitSeconds = (group: Group, configuredGraceSeconds: number | undefined): number => {
  if (configuredGraceSeconds !== undefined) return configuredGraceSeconds
  const { trafficSources } = group
  const healthReadable = hasTrafficSources(trafficSources) && trafficSources.unreadable.length === 0
  return healthReadable ? 0 : group.healthCheckGracePeriodSeconds
}
