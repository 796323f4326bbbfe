/** One group of a scenario region: shape, tags, launch source, protections, scaling, load balancers. */
import type { Catalog } from '../../../lambdas/core/types.ts'
import { type Checker, childPath, type Json } from './check.ts'
import { FEATURE_FIELDS, parseGroupFeatures } from './parse-group-features.ts'
import { parseLoadBalancers } from './parse-load-balancer.ts'
import type { ScenarioGroup } from './types.ts'

export const GROUP_FIELDS = [
  'name',
  'instanceType',
  'min',
  'max',
  'desired',
  'tags',
  'healthCheckGracePeriod',
  'launch',
  'terminationHook',
  'protectedFromScaleIn',
  'terminationProtected',
  'desiredSchedule',
  'loadBalancers',
  'unhealthyReplacementFraction',
  ...FEATURE_FIELDS,
] as const

/** Auto Scaling's own limits on names, sizes, tags and the grace period. */
const MAX_GROUP_NAME = 255
const MAX_GROUP_SIZE = 10_000
const MAX_TAG_KEY = 128
const MAX_TAG_VALUE = 256
const MAX_GRACE_SECONDS = 86_400
const GROUP_NAME = /^[^:]{1,255}$/

export interface GroupContext {
  readonly catalog: Catalog
  /** On-demand USD/hour in the group's region, to reject types the cost baseline cannot price. */
  readonly onDemandPrice: (instanceType: string) => number | undefined
}

const parseTags = (check: Checker, path: string, raw: Json | undefined): Record<string, string> => {
  if (raw === undefined) return {}
  const tags: Record<string, string> = {}
  for (const [key, value] of Object.entries(check.map(path, raw) ?? {})) {
    const at = childPath(path, key)
    if (key.length === 0 || key.length > MAX_TAG_KEY)
      check.fail(at, `a tag key of 1 to ${MAX_TAG_KEY} characters`, key)
    else if (typeof value !== 'string' || value.length > MAX_TAG_VALUE)
      check.fail(at, `a string of at most ${MAX_TAG_VALUE} characters`, value)
    else tags[key] = value
  }
  return tags
}

const parseSchedule = (
  check: Checker,
  path: string,
  raw: Json | undefined,
  min: number,
  max: number,
): [number, number][] => {
  if (raw === undefined) return []
  const steps: [number, number][] = []
  ;(check.array(path, raw) ?? []).forEach((entry, i) => {
    const at = childPath(path, i)
    if (!Array.isArray(entry) || entry.length !== 2) {
      check.fail(at, '[<ISO time>, <desired>]', entry)
      return
    }
    const time = check.time(childPath(at, 0), entry[0])
    const desired = check.integer(childPath(at, 1), entry[1], min, max)
    if (time !== undefined && desired !== undefined) steps.push([time, desired])
  })
  return steps.sort((a, b) => a[0] - b[0])
}

export const parseGroup = (
  check: Checker,
  path: string,
  raw: Json,
  ctx: GroupContext,
): ScenarioGroup | undefined => {
  const fields = check.object(path, raw, GROUP_FIELDS)
  if (fields === undefined) return undefined
  const at = (key: string) => childPath(path, key)
  const name = check.string(
    at('name'),
    fields.name,
    GROUP_NAME,
    `a group name of 1 to ${MAX_GROUP_NAME} characters without ':'`,
  )
  let instanceType = check.string(at('instanceType'), fields.instanceType)
  if (instanceType !== undefined && !ctx.catalog.has(instanceType))
    instanceType = check.fail(at('instanceType'), 'an instance type of the embedded catalogue', instanceType)
  else if (instanceType !== undefined && ctx.onDemandPrice(instanceType) === undefined)
    instanceType = check.fail(
      at('instanceType'),
      'an instance type with an embedded on-demand price',
      instanceType,
    )
  const min = check.integer(at('min'), fields.min, 0, MAX_GROUP_SIZE)
  const max = check.integer(at('max'), fields.max, min ?? 0, MAX_GROUP_SIZE)
  const desired = check.integer(at('desired'), fields.desired, min ?? 0, max ?? MAX_GROUP_SIZE)
  const tags = parseTags(check, at('tags'), fields.tags)
  const grace =
    fields.healthCheckGracePeriod === undefined
      ? 300
      : check.integer(at('healthCheckGracePeriod'), fields.healthCheckGracePeriod, 0, MAX_GRACE_SECONDS)
  const launch =
    fields.launch === undefined
      ? 'template'
      : check.oneOf(at('launch'), fields.launch, ['template', 'configuration'] as const)
  const hook =
    fields.terminationHook === undefined
      ? false
      : check.boolean(at('terminationHook'), fields.terminationHook)
  const count = (key: 'protectedFromScaleIn' | 'terminationProtected') =>
    fields[key] === undefined ? 0 : check.integer(at(key), fields[key], 0, desired ?? 0)
  const protectedFromScaleIn = count('protectedFromScaleIn')
  const terminationProtected = count('terminationProtected')
  const desiredSchedule = parseSchedule(
    check,
    at('desiredSchedule'),
    fields.desiredSchedule,
    min ?? 0,
    max ?? MAX_GROUP_SIZE,
  )
  const loadBalancers = parseLoadBalancers(check, at('loadBalancers'), fields.loadBalancers)
  const unhealthyReplacementFraction =
    fields.unhealthyReplacementFraction === undefined
      ? 0
      : check.number(at('unhealthyReplacementFraction'), fields.unhealthyReplacementFraction, 0, 1)
  const features = parseGroupFeatures(check, path, fields)
  if (
    features === undefined ||
    name === undefined ||
    instanceType === undefined ||
    min === undefined ||
    max === undefined ||
    desired === undefined ||
    grace === undefined ||
    launch === undefined ||
    hook === undefined ||
    protectedFromScaleIn === undefined ||
    terminationProtected === undefined ||
    unhealthyReplacementFraction === undefined
  )
    return undefined
  return {
    name,
    instanceType,
    min,
    max,
    desired,
    tags,
    healthCheckGracePeriod: grace,
    launch,
    terminationHook: hook,
    protectedFromScaleIn,
    terminationProtected,
    desiredSchedule,
    loadBalancers,
    unhealthyReplacementFraction,
    ...features,
  }
}
