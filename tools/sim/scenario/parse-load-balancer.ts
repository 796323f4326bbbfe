/**
 * A group's load balancers in a scenario: target groups and classic load balancers with their health
 * checks and deregistration delay, AWS's defaults where a field is left out. The schema holds AWS's
 * ranges (interval 5-300 s, healthy threshold 2-10, delay 0-3600 s, 50 per group).
 */
import type { LoadBalancerFile } from './file-format.ts'
import type { LoadBalancerType, ScenarioLoadBalancer } from './types.ts'

/**
 * What AWS gives a load balancer whose owner sets nothing: an Application Load Balancer's target group
 * checks every 30 s and wants 5 successes, a classic load balancer 30 s and 10; both drain for 300 s
 * (https://docs.aws.amazon.com/elasticloadbalancing/latest/application/target-group-health-checks.html,
 * https://docs.aws.amazon.com/elasticloadbalancing/latest/classic/elb-healthchecks.html,
 * https://docs.aws.amazon.com/elasticloadbalancing/latest/classic/config-conn-drain.html).
 * The healthy threshold's default depends on the type, which a schema's `default` cannot say.
 */
export const LOAD_BALANCER_DEFAULTS: Readonly<Record<LoadBalancerType, Omit<ScenarioLoadBalancer, 'type'>>> =
  {
    'target-group': { healthCheckIntervalSeconds: 30, healthyThreshold: 5, deregistrationDelaySeconds: 300 },
    classic: { healthCheckIntervalSeconds: 30, healthyThreshold: 10, deregistrationDelaySeconds: 300 },
  }

export const parseLoadBalancer = (file: LoadBalancerFile): ScenarioLoadBalancer => {
  const defaults = LOAD_BALANCER_DEFAULTS[file.type]
  return {
    type: file.type,
    healthCheckIntervalSeconds: file.healthCheckIntervalSeconds ?? defaults.healthCheckIntervalSeconds,
    healthyThreshold: file.healthyThreshold ?? defaults.healthyThreshold,
    deregistrationDelaySeconds: file.deregistrationDelaySeconds ?? defaults.deregistrationDelaySeconds,
  }
}
