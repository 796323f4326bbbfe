/**
 * Gathers what the decision needs about one instance in two rounds of parallel reads: the instance
 * and its group membership, then its group and lifecycle hooks. Events carry no group name.
 */
import type { GlobalConfig } from '../core/config.ts'
import { type InterruptionSnapshot, targetGroupName } from '../core/interruption.ts'
import { groupQuery } from '../core/managed.ts'
import type { LifecycleHook } from '../core/port.ts'
import type { Group } from '../core/types.ts'
import type { InterruptionCloud } from './deps.ts'

export const observeInstance = async (
  cloud: InterruptionCloud,
  instanceId: string,
  config: GlobalConfig,
  now: Date,
): Promise<InterruptionSnapshot> => {
  const [instances, membership] = await Promise.all([
    cloud.describeInstances([instanceId]),
    cloud.groupOfInstances([instanceId]),
  ])
  const instance = instances.find((candidate) => candidate.id === instanceId)
  const memberOf = membership.get(instanceId)
  const groupName = targetGroupName(instance, memberOf)
  let group: Group | undefined
  let hooks: readonly LifecycleHook[] = []
  if (instance !== undefined && groupName !== undefined) {
    // Only managed groups are listed, so an unmanaged group is simply not found: the same query the
    // replacer uses, which keeps the two Lambdas in agreement about what is theirs.
    const [groups, groupHooks] = await Promise.all([
      cloud.describeGroups(groupQuery(config)),
      memberOf === undefined ? Promise.resolve([]) : cloud.lifecycleHooks(groupName),
    ])
    group = groups.find((candidate) => candidate.name === groupName)
    hooks = groupHooks
  }
  return { instance, memberOf, group, hooks, config, now }
}
