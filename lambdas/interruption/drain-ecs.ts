/**
 * The interruption handler's ECS step (core/ecs/interruption-drain.ts): a warned spot member of a group
 * carrying AmazonECSManaged is set DRAINING before it leaves. Reads the providers and clusters (cached per
 * container) and the cluster's container instances; anything that fails is said and the leave goes on:
 * the drain helps ECS move tasks in time, the leave is what frees the capacity.
 */
import { errorMessage } from '../aws/errors.ts'
import { carriesEcsTag } from '../core/ecs/capacity-provider.ts'
import { interruptionDrainOf } from '../core/ecs/interruption-drain.ts'
import type { InterruptionSignal, InterruptionSnapshot } from '../core/interruption/decision.ts'
import type { InterruptionCloud } from './deps.ts'

/** What the drain did: whether ECS now drains the member, and the event's log line. */
export interface WarnedDrain {
  readonly draining: boolean
  readonly detail: string
}

/** The drain of a warned member; undefined when there was nothing to drain. */
export const drainWarnedMember = async (
  cloud: InterruptionCloud,
  signal: InterruptionSignal,
  snapshot: InterruptionSnapshot,
): Promise<WarnedDrain | undefined> => {
  const { group, instance } = snapshot
  const warned = signal.kind === 'spot-interruption' && signal.deadline !== true
  if (!warned || group === undefined || instance?.lifecycle !== 'spot' || snapshot.memberOf === undefined)
    return undefined
  if (!carriesEcsTag(group)) return undefined
  try {
    const [providers, clusters] = await Promise.all([cloud.ecsCapacityProviders(), cloud.ecsClusters()])
    const decided = interruptionDrainOf(group, providers, clusters)
    if (decided.kind === 'none') return notDrained(decided.why)
    const found = (await cloud.ecsContainerInstances(decided.clusterArn)).find(
      (ci) => ci.ec2InstanceId === instance.id,
    )
    if (found === undefined) return notDrained(`no container instance in ${decided.clusterArn}`)
    const refused = await cloud.setContainerInstancesState(decided.clusterArn, [found.arn], 'DRAINING')
    return refused[0] === undefined
      ? { draining: true, detail: `drained ${found.arn}` }
      : { draining: false, detail: `ECS did not drain ${found.arn}: ${refused[0].reason}` }
  } catch (error) {
    return notDrained(error instanceof Error ? `${error.name}: ${errorMessage(error)}` : String(error))
  }
}

const notDrained = (why: string): WarnedDrain => ({ draining: false, detail: `not drained: ${why}` })
