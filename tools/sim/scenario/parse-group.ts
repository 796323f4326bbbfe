/**
 * One group of a scenario region, once the schema has passed it: the rules between its fields (min ≤
 * desired ≤ max, protections within desired, the schedule within min and max), its instance type
 * against the catalogue and the on-demand prices, and the defaults the file leaves out.
 */
import type { Catalog } from '../../../lambdas/core/types.ts'
import { childPath, type Problems } from './check.ts'
import type { GroupFile } from './file-format.ts'
import { parseEcs } from './parse-ecs.ts'
import { parseGroupFeatures } from './parse-group-features.ts'
import { parseLoadBalancer } from './parse-load-balancer.ts'
import type { ScenarioGroup } from './types.ts'

export interface GroupContext {
  readonly catalog: Catalog
  /** On-demand USD/hour in the group's region, to reject types the cost baseline cannot price. */
  readonly onDemandPrice: (instanceType: string) => number | undefined
}

/** Auto Scaling's default health check grace period, in seconds (as the schema's `default`). */
const DEFAULT_GRACE_SECONDS = 300

const checkInstanceType = (problems: Problems, path: string, type: string, ctx: GroupContext): void => {
  if (!ctx.catalog.has(type)) problems.fail(path, 'an instance type of the embedded catalogue', type)
  else if (ctx.onDemandPrice(type) === undefined)
    problems.fail(path, 'an instance type with an embedded on-demand price', type)
}

const checkWithin = (problems: Problems, path: string, value: number, min: number, max: number): void => {
  if (value < min || value > max) problems.fail(path, `an integer from ${min} to ${max}`, value)
}

const parseSchedule = (problems: Problems, path: string, file: GroupFile): [number, number][] =>
  (file.desiredSchedule ?? [])
    .map(([time, desired], i): [number, number] => {
      const at = childPath(path, i)
      checkWithin(problems, childPath(at, 1), desired, file.min, Math.max(file.min, file.max))
      return [problems.time(childPath(at, 0), time), desired]
    })
    .sort((a, b) => a[0] - b[0])

export const parseGroup = (
  problems: Problems,
  path: string,
  file: GroupFile,
  ctx: GroupContext,
): ScenarioGroup => {
  const at = (key: string) => childPath(path, key)
  checkInstanceType(problems, at('instanceType'), file.instanceType, ctx)
  if (file.max < file.min) problems.fail(at('max'), `an integer of at least min (${file.min})`, file.max)
  else checkWithin(problems, at('desired'), file.desired, file.min, file.max)
  const protectedFromScaleIn = file.protectedFromScaleIn ?? 0
  const terminationProtected = file.terminationProtected ?? 0
  checkWithin(problems, at('protectedFromScaleIn'), protectedFromScaleIn, 0, file.desired)
  checkWithin(problems, at('terminationProtected'), terminationProtected, 0, file.desired)
  return {
    name: file.name,
    instanceType: file.instanceType,
    min: file.min,
    max: file.max,
    desired: file.desired,
    tags: { ...file.tags },
    healthCheckGracePeriod: file.healthCheckGracePeriod ?? DEFAULT_GRACE_SECONDS,
    launch: file.launch ?? 'template',
    terminationHook: file.terminationHook ?? false,
    protectedFromScaleIn,
    terminationProtected,
    desiredSchedule: parseSchedule(problems, at('desiredSchedule'), file),
    loadBalancers: (file.loadBalancers ?? []).map(parseLoadBalancer),
    unhealthyReplacementFraction: file.unhealthyReplacementFraction ?? 0,
    image: { enaSupport: file.image?.enaSupport ?? true, nvmeDrivers: file.image?.nvmeDrivers ?? true },
    ...parseGroupFeatures(problems, path, file),
    ...parseEcs(problems, path, file),
  }
}
