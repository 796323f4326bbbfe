/**
 * The Auto Scaling features of a scenario group that change what spotswap may do with it: a launch
 * lifecycle hook, suspended processes, Capacity Rebalancing, a warm pool and instance refreshes.
 * The schema names the processes (the same as core/group/suspended-processes.ts, a test checks).
 */
import type { Problems } from './check.ts'
import { childPath } from './check.ts'
import type { GroupFile } from './file-format.ts'
import type { ScenarioGroupFeatures } from './types.ts'

export const parseGroupFeatures = (
  problems: Problems,
  path: string,
  file: GroupFile,
): ScenarioGroupFeatures => {
  const refreshesPath = childPath(path, 'instanceRefreshes')
  return {
    launchHook: file.launchHook ?? false,
    suspendedProcesses: file.suspendedProcesses ?? [],
    capacityRebalance: file.capacityRebalance ?? false,
    warmPool: file.warmPool === undefined ? undefined : { minSize: file.warmPool.minSize },
    instanceRefreshes: (file.instanceRefreshes ?? [])
      .map((start, i) => problems.time(childPath(refreshesPath, i), start))
      .sort((a, b) => a - b),
    instanceRefreshesUnreadable: file.instanceRefreshesUnreadable ?? false,
  }
}
