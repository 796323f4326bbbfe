import { describe, expect, it } from 'vitest'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import type { MixedInstancesOverride, MixedInstancesPolicy } from '../../../lambdas/core/types.ts'
import { launches } from '../../builders/actions.ts'
import { anInstance, minutesAgo, planInput } from '../../builders/world.ts'

const X86 = { id: 'lt-x86', name: undefined, version: '$Default' }
const ARM = { id: 'lt-arm', name: undefined, version: '7' }

const policy = (overrides: readonly MixedInstancesOverride[]): MixedInstancesPolicy => ({
  launchTemplate: X86,
  overrideTypes: overrides.map((o) => o.instanceType),
  overrides,
  onDemandBaseCapacity: 0,
  onDemandPercentageAboveBaseCapacity: 0,
})

const override = (
  instanceType: string,
  more: Partial<MixedInstancesOverride> = {},
): MixedInstancesOverride => ({
  instanceType,
  launchTemplate: undefined,
  weightedCapacity: 1,
  ...more,
})

const planFor = (type: string, mixed: MixedInstancesPolicy, allowed: readonly string[] = []) => {
  const original = anInstance({ type, zone: 'us-east-1b', launchTime: minutesAgo(600) })
  return planGroup(
    planInput([original], {
      groupOverrides: { launchTemplate: undefined, mixedInstancesPolicy: mixed },
      config: { ...planInput([]).config, allowedInstanceTypes: allowed },
    }),
  )
}

describe('MixedInstancesPolicy groups', () => {
  it('launches an arm64 type whose override names its own template from that template, not the base x86 one', () => {
    const mixed = policy([
      override('m5.large'),
      override('m6g.large', { launchTemplate: ARM }),
      override('m6g.xlarge', { launchTemplate: ARM }),
    ])
    const [launch] = launches(planFor('m6g.large', mixed).actions)
    expect(launch?.launchTemplate).toEqual(X86)
    expect(launch?.overrides.length).toBeGreaterThan(0)
    for (const o of launch?.overrides ?? []) expect(o.launchTemplate).toEqual(ARM)
  })

  it('keeps the base template for types its overrides launch from it', () => {
    const mixed = policy([
      override('m5.large'),
      override('m5a.large'),
      override('m6g.large', { launchTemplate: ARM }),
    ])
    const [launch] = launches(planFor('m5.large', mixed).actions)
    expect(launch?.overrides.length).toBeGreaterThan(0)
    for (const o of launch?.overrides ?? []) expect(o.launchTemplate).toBeUndefined()
  })

  it('launches a type the overrides do not name (a wider allow list) from the template of the type it replaces', () => {
    const mixed = policy([override('m5.large'), override('m6g.large', { launchTemplate: ARM })])
    const [launch] = launches(planFor('m6g.large', mixed, ['m6g.*', 'm7g.*', 't4g.*']).actions)
    const types = launch?.overrides.map((o) => o.instanceType) ?? []
    expect(types.some((t) => t !== 'm6g.large')).toBe(true)
    for (const o of launch?.overrides ?? []) expect(o.launchTemplate).toEqual(ARM)
  })

  it.each([2, 0.5, Number.NaN])(
    'skips a group whose overrides weigh %s (a swap counts instances, not units)',
    (weight) => {
      const mixed = policy([override('m5.large'), override('m5.xlarge', { weightedCapacity: weight })])
      const plan = planFor('m5.large', mixed)
      expect(plan.skip?.code).toBe('weighted-capacity')
      expect(plan.skipped).toContain('m5.xlarge=')
      expect(launches(plan.actions)).toEqual([])
    },
  )

  it('converts a group whose overrides all weigh 1', () => {
    const mixed = policy([override('m5.large'), override('m5a.large', { weightedCapacity: 1 })])
    expect(launches(planFor('m5.large', mixed).actions)).toHaveLength(1)
  })
})
