/** A launch-spot action: the fleet request for one member's replacement, with its tags and token. */

import type { GroupConfig } from '../config/config.ts'
import { TAG_REPLACEMENT_ATTEMPT } from '../constants.ts'
import type { FleetOverride } from '../port.ts'
import type { Group, Instance } from '../types.ts'
import type { LaunchSpotAction } from './actions.ts'
import { clientToken, nextAttempt } from './attempts.ts'
import { capacityBackoffUntil } from './capacity-backoff.ts'
import type { FleetChoices } from './fleet-choices.ts'
import { launchTags } from './launch-tags.ts'
import type { PlanInput } from './plan-input.ts'

export interface LaunchPurpose {
  /** Replaces a member EC2 interrupts within two minutes: released if nothing launches. */
  readonly doomed: boolean
  readonly expectedHourlySavingsUsd: number
  readonly reason: string
}

/** The launch of a replacement for `instance`, measured against `baseType`, offering `choices`. */
export const launchAction = (
  input: PlanInput,
  config: GroupConfig,
  instance: Instance,
  baseType: string,
  { overrides }: FleetChoices,
  purpose: LaunchPurpose,
): LaunchSpotAction => {
  const { group } = input
  const { attempt, since } = nextAttempt(
    instance.tags[TAG_REPLACEMENT_ATTEMPT],
    input.now,
    input.scheduleMinutes * 30_000,
  )
  const templates = overrideTemplates(group, instance.type)
  return {
    kind: 'launch-spot',
    group: group.name,
    replacing: instance.id,
    replacingType: instance.type,
    zone: instance.zone,
    launchTemplate: group.launchTemplate ?? group.mixedInstancesPolicy?.launchTemplate,
    launchConfigurationName: group.launchConfigurationName,
    overrides: templates === undefined ? overrides : overrides.map(templates),
    allocationStrategy: config.spotAllocationStrategy,
    tags: launchTags(group, instance, baseType),
    clientToken: clientToken(instance.id, attempt),
    attempt,
    attemptSince: since,
    capacityBackoffUntil: capacityBackoffUntil(input.now, attempt),
    releaseIfNotLaunched: purpose.doomed,
    expectedHourlySavingsUsd: purpose.expectedHourlySavingsUsd,
    reason: purpose.reason,
  }
}

/**
 * For a MixedInstancesPolicy that gives some type its own launch template: each fleet override with the
 * template Auto Scaling would launch its type from. A type the policy names goes with its override's
 * template (or the policy's); any other (an allow list wider than the overrides) with the template of the
 * type it replaces, the image that instance runs. Undefined when every type uses the policy's template.
 */
const overrideTemplates = (
  group: Group,
  replacedType: string,
): ((override: FleetOverride) => FleetOverride) | undefined => {
  const policy = group.mixedInstancesPolicy
  if (policy === undefined || !policy.overrides.some((o) => o.launchTemplate !== undefined)) return undefined
  const byType = new Map(
    policy.overrides.map((o) => [o.instanceType, o.launchTemplate ?? policy.launchTemplate]),
  )
  const fallback = byType.get(replacedType) ?? policy.launchTemplate
  return (override) => {
    const launchTemplate = byType.get(override.instanceType) ?? fallback
    return launchTemplate === policy.launchTemplate ? override : { ...override, launchTemplate }
  }
}
