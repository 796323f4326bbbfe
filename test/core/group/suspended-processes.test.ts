import { describe, expect, it } from 'vitest'
import { blockingSuspensions, SUSPENDED_PROCESSES } from '../../../lambdas/core/group/suspended-processes.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import { NO_TRAFFIC_SOURCES, type TrafficSources } from '../../../lambdas/core/types.ts'
import { launches } from '../../builders/actions.ts'
import { aGroup, onDemandFleet, planInput } from '../../builders/world.ts'

const BEHIND_TG: TrafficSources = {
  targetGroupArns: ['arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/0123456789abcdef'],
  classicLoadBalancerNames: [],
  unreadable: [],
}

describe('suspended processes', () => {
  // Every process SuspendProcesses accepts (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_SuspendProcesses.html).
  it('decides every process Auto Scaling can suspend, with a reason', () => {
    expect(Object.keys(SUSPENDED_PROCESSES).sort()).toEqual(
      [
        'AZRebalance',
        'AddToLoadBalancer',
        'AlarmNotification',
        'HealthCheck',
        'InstanceRefresh',
        'Launch',
        'ReplaceUnhealthy',
        'ScheduledActions',
        'Terminate',
      ].sort(),
    )
    for (const decision of Object.values(SUSPENDED_PROCESSES)) expect(decision.why.length).toBeGreaterThan(20)
  })

  it.each([
    ['Launch', NO_TRAFFIC_SOURCES, true],
    ['Terminate', NO_TRAFFIC_SOURCES, true],
    ['AddToLoadBalancer', BEHIND_TG, true],
    ['AddToLoadBalancer', NO_TRAFFIC_SOURCES, false],
    ['HealthCheck', BEHIND_TG, false],
    ['ReplaceUnhealthy', BEHIND_TG, false],
    ['AZRebalance', BEHIND_TG, false],
    ['AlarmNotification', BEHIND_TG, false],
    ['ScheduledActions', BEHIND_TG, false],
    ['InstanceRefresh', BEHIND_TG, false],
    ['SomethingNew', NO_TRAFFIC_SOURCES, true],
  ] as const)('%s suspended (%o): the group is skipped = %s', (process, trafficSources, skipped) => {
    expect(blockingSuspensions(aGroup([], { suspendedProcesses: [process], trafficSources }))).toEqual(
      skipped ? [process] : [],
    )
    const plan = planGroup(
      planInput(onDemandFleet(2), { groupOverrides: { suspendedProcesses: [process], trafficSources } }),
    )
    if (skipped) {
      expect(plan.skip).toEqual({ code: 'processes-suspended', detail: process })
      expect(launches(plan.actions)).toHaveLength(0)
    } else {
      expect(plan.skip).toBeUndefined()
      expect(launches(plan.actions).length).toBeGreaterThan(0)
    }
  })
})
