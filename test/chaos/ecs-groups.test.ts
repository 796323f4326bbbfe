import { describe, expect, it } from 'vitest'
import { generateCase } from '../../tools/chaos/generate.ts'

interface DrawnGroup {
  readonly protectedFromScaleIn: number
  readonly ecs?: {
    readonly managedTerminationProtection: boolean
    readonly services?: readonly {
      readonly minimumHealthyPercent: number
      readonly placementStrategy: string
    }[]
    readonly managedScaling?: { readonly targetCapacity: number }
  }
}

const groupsOf = (seed: number): DrawnGroup[] =>
  Object.values(
    (generateCase(seed).scenario as { regions: Record<string, { groups: DrawnGroup[] }> }).regions,
  ).flatMap((region) => region.groups)

describe('chaos ECS groups', () => {
  const groups = Array.from({ length: 60 }, (_, i) => groupsOf(i + 1)).flat()
  const ecs = groups.filter((g) => g.ecs !== undefined)

  it('are generated, ECS protecting their members in most, the owner in some', () => {
    expect(ecs.filter((g) => g.ecs?.managedTerminationProtection).length).toBeGreaterThan(5)
    expect(ecs.filter((g) => g.ecs?.managedTerminationProtection === false).length).toBeGreaterThan(0)
  })

  it('always have protected members: ECS protects the ones running tasks', () => {
    for (const g of ecs) expect(g.protectedFromScaleIn).toBeGreaterThan(0)
  })

  it('run a service in about half, replacements first in some and stop first in others', () => {
    const withService = ecs.filter((g) => (g.ecs?.services ?? []).length > 0)
    expect(withService.length).toBeGreaterThan(2)
    expect(withService.length).toBeLessThan(ecs.length)
    const floors = new Set(withService.map((g) => g.ecs?.services?.[0]?.minimumHealthyPercent))
    expect(floors).toEqual(new Set([50, 100]))
  })

  it('have ECS managed scaling in about half, some keeping spare instances, and binpack some services', () => {
    const scaled = ecs.filter((g) => g.ecs?.managedScaling !== undefined)
    expect(scaled.length).toBeGreaterThan(2)
    expect(scaled.length).toBeLessThan(ecs.length)
    expect(new Set(scaled.map((g) => g.ecs?.managedScaling?.targetCapacity))).toEqual(new Set([75, 100]))
    const strategies = new Set(ecs.flatMap((g) => (g.ecs?.services ?? []).map((s) => s.placementStrategy)))
    expect(strategies).toEqual(new Set(['spread', 'binpack']))
  })
})
