/**
 * Which of a group's suspended Auto Scaling processes keep spotswap away from it, each decided with its
 * reason, from https://docs.aws.amazon.com/autoscaling/ec2/userguide/understand-how-suspending-processes-affects-other-processes.html.
 */

import type { Group } from '../types.ts'
import { hasTrafficSources } from './serving.ts'

interface ProcessDecision {
  /** `always`, `with-load-balancers` (only a group that has some), or `never`. */
  readonly blocks: 'always' | 'with-load-balancers' | 'never'
  readonly why: string
}

export const SUSPENDED_PROCESSES: Readonly<Record<string, ProcessDecision>> = {
  Launch: {
    blocks: 'always',
    why: 'the group could not backfill an interrupted spot member, and the owner froze its size',
  },
  Terminate: {
    blocks: 'always',
    why: 'a partner could not leave through the group, and the owner froze its size',
  },
  AddToLoadBalancer: {
    blocks: 'with-load-balancers',
    why: 'an instance attached meanwhile is never registered with the load balancers, not even after the process resumes, so a replacement would never serve',
  },
  HealthCheck: {
    blocks: 'never',
    why: 'the group only stops marking instances unhealthy; a swap judges serving by the load balancers',
  },
  ReplaceUnhealthy: {
    blocks: 'never',
    why: 'the group only stops replacing unhealthy instances; a swap keeps capacity by itself',
  },
  AZRebalance: {
    blocks: 'never',
    why: 'a replacement goes into its partner’s zone, so the zone balance is unchanged',
  },
  AlarmNotification: {
    blocks: 'never',
    why: 'only the owner’s scaling policies pause; a swap keeps the desired capacity the owner set',
  },
  ScheduledActions: {
    blocks: 'never',
    why: 'only the owner’s scheduled scaling pauses; a swap keeps the desired capacity the owner set',
  },
  InstanceRefresh: {
    blocks: 'never',
    why: 'a paused refresh replaces nothing while suspended',
  },
}

/** The suspended processes that keep spotswap away from this group now; an unknown name blocks (never guess). */
export const blockingSuspensions = (group: Group): string[] =>
  group.suspendedProcesses.filter((process) => {
    const decision = SUSPENDED_PROCESSES[process]
    if (decision === undefined) return true
    if (decision.blocks === 'with-load-balancers') return hasTrafficSources(group.trafficSources)
    return decision.blocks === 'always'
  })
