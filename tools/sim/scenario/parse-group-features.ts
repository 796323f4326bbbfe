/**
 * The Auto Scaling features of a scenario group that change what spotswap may do with it: a launch
 * lifecycle hook, suspended processes, Capacity Rebalancing, a warm pool and instance refreshes.
 */
import { SUSPENDED_PROCESSES } from '../../../lambdas/core/group/suspended-processes.ts'
import { type Checker, childPath, type Json, type JsonObject } from './check.ts'
import type { ScenarioGroupFeatures } from './types.ts'

export const FEATURE_FIELDS = [
  'launchHook',
  'suspendedProcesses',
  'capacityRebalance',
  'warmPool',
  'instanceRefreshes',
  'instanceRefreshesUnreadable',
] as const

/** Auto Scaling's warm pool MinSize has no documented upper bound; a scenario keeps it small. */
const MAX_WARM_POOL = 100
const PROCESS_NAMES = Object.keys(SUSPENDED_PROCESSES)

const flag = (check: Checker, path: string, raw: Json | undefined): boolean | undefined =>
  raw === undefined ? false : check.boolean(path, raw)

export const parseGroupFeatures = (
  check: Checker,
  path: string,
  fields: JsonObject,
): ScenarioGroupFeatures | undefined => {
  const at = (key: string) => childPath(path, key)
  const launchHook = flag(check, at('launchHook'), fields.launchHook)
  const capacityRebalance = flag(check, at('capacityRebalance'), fields.capacityRebalance)
  const refreshesUnreadable = flag(
    check,
    at('instanceRefreshesUnreadable'),
    fields.instanceRefreshesUnreadable,
  )
  const suspended: string[] = []
  if (fields.suspendedProcesses !== undefined)
    (check.array(at('suspendedProcesses'), fields.suspendedProcesses) ?? []).forEach((name, i) => {
      const process = check.string(childPath(at('suspendedProcesses'), i), name)
      if (process === undefined) return
      if (!PROCESS_NAMES.includes(process))
        check.fail(childPath(at('suspendedProcesses'), i), `one of ${PROCESS_NAMES.join(', ')}`, process)
      else if (!suspended.includes(process)) suspended.push(process)
    })
  let warmPool: ScenarioGroupFeatures['warmPool']
  if (fields.warmPool !== undefined) {
    const pool = check.object(at('warmPool'), fields.warmPool, ['minSize'])
    const minSize =
      pool === undefined
        ? undefined
        : check.integer(childPath(at('warmPool'), 'minSize'), pool.minSize, 0, MAX_WARM_POOL)
    if (minSize !== undefined) warmPool = { minSize }
  }
  const refreshes: number[] = []
  if (fields.instanceRefreshes !== undefined)
    (check.array(at('instanceRefreshes'), fields.instanceRefreshes) ?? []).forEach((raw, i) => {
      const start = check.time(childPath(at('instanceRefreshes'), i), raw)
      if (start !== undefined) refreshes.push(start)
    })
  if (launchHook === undefined || capacityRebalance === undefined || refreshesUnreadable === undefined)
    return undefined
  return {
    launchHook,
    suspendedProcesses: suspended,
    capacityRebalance,
    warmPool,
    instanceRefreshes: refreshes.sort((a, b) => a - b),
    instanceRefreshesUnreadable: refreshesUnreadable,
  }
}
