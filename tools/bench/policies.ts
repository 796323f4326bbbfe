/** The benchmark's policies: five run in the simulator as configuration, the oracle is computed. */
import {
  ASG_LOWEST_PRICE_POLICY,
  ASG_PRICE_CAPACITY_OPTIMIZED_POLICY,
  AUTOSPOTTING_POLICY,
  ON_DEMAND_POLICY,
  type SimPolicy,
  SPOTSWAP_POLICY,
} from '../sim/policy.ts'
import type { PolicyKey } from './results.ts'

export const SIMULATED_POLICIES: Readonly<Record<Exclude<PolicyKey, 'oracle'>, SimPolicy>> = {
  spotswap: SPOTSWAP_POLICY,
  autospotting: AUTOSPOTTING_POLICY,
  'on-demand': ON_DEMAND_POLICY,
  'asg-lowest-price': ASG_LOWEST_PRICE_POLICY,
  'asg-price-capacity-optimized': ASG_PRICE_CAPACITY_OPTIMIZED_POLICY,
}
