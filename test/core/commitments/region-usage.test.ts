import { describe, expect, it } from 'vitest'
import {
  managedTypes,
  managedUsage,
  type RegionUsageInput,
  regionCoverage,
  regionUsage,
} from '../../../lambdas/core/commitments/region-usage.ts'
import type { RunningOnDemand } from '../../../lambdas/core/commitments/types.ts'
import { commitments, laneInput, ri, listedRunning as running } from '../../builders/commitments.ts'
import { aGroup, anInstance, memberOf, minutesAgo } from '../../builders/world.ts'

const coveredIds = (input: RegionUsageInput, listed: readonly RunningOnDemand[], held = 1): string[] => {
  const covered = regionCoverage(
    regionUsage(input, listed),
    commitments({ reservedInstances: [ri('ri-1', 'm5.large', { count: held })] }),
  )
  const own = new Set(input.groups.flatMap((g) => g.group.members.map((m) => m.instanceId)))
  return [...(covered?.keys() ?? [])].filter((id) => own.has(id))
}

describe('managedUsage', () => {
  const older = anInstance({ type: 'm5.large', launchTime: minutesAgo(60) })
  const newer = anInstance({ type: 'm5.large', launchTime: minutesAgo(10) })
  const spot = anInstance({ type: 'm5.large', lifecycle: 'spot' })
  const unpriced = anInstance({ type: 'x9.large' })
  const leaving = anInstance({ type: 'm5.large' })
  const group = aGroup([
    memberOf(older),
    memberOf(newer),
    memberOf(spot),
    memberOf(unpriced),
    memberOf(leaving, { lifecycleState: 'Terminating' }),
  ])
  const input = laneInput([group], [group], [older, newer, spot, unpriced, leaving])

  it('lists the on-demand members in service with a price, newest first, an hour each', () => {
    expect(managedUsage(input).map((u) => [u.id, u.managed, u.onDemandRateUsd, u.seconds])).toEqual([
      [newer.id, true, 0.096, 3600],
      [older.id, true, 0.096, 3600],
    ])
  })

  it('covers the newest member first: the planner replaces the oldest first', () => {
    expect(coveredIds(input, [])).toEqual([newer.id])
  })

  it('covers nothing, and computes nothing, without commitments', () => {
    expect(regionCoverage(regionUsage(input), commitments({}))).toBeUndefined()
  })

  it('names the type of each of its lines, without building them (the commitments read)', () => {
    const c5 = anInstance({ type: 'c5.large', launchTime: minutesAgo(5) })
    const wider = aGroup([memberOf(c5), ...group.members])
    const priced = new Map([
      [
        'Linux/UNIX',
        {
          prices: new Map([
            ['m5.large', 0.096],
            ['c5.large', 0.085],
          ]),
          source: 'embedded' as const,
        },
      ],
    ])
    const both = {
      ...laneInput([wider], [wider], [c5, older, newer, spot, unpriced, leaving]),
      onDemandPrices: priced,
    }
    const typesOfLines = managedUsage(both).map((u) => u.type)
    expect(managedTypes(both).sort()).toEqual(typesOfLines.sort())
    expect(managedTypes(both).sort()).toEqual(['c5.large', 'm5.large', 'm5.large'])
    expect(
      managedTypes(laneInput([aGroup([memberOf(spot), memberOf(unpriced)])], [], [spot, unpriced])),
    ).toEqual([])
  })
})

describe('regionUsage: unmanaged usage', () => {
  const member = anInstance({ launchTime: minutesAgo(10) })
  const group = aGroup([memberOf(member)])
  const input = laneInput([group], [group], [member])

  it.each([
    ['a standalone instance', anInstance({ launchTime: minutesAgo(600) }), undefined],
    ['an instance of a group spotswap does not manage', anInstance(), 'batch'],
  ])('lets %s take the RI first: the member is not kept for it', (_, other, groupName) => {
    expect(coveredIds(input, [running(other, groupName), running(member, 'web')])).toEqual([])
    expect(coveredIds(input, [running(other, groupName), running(member, 'web')], 2)).toEqual([member.id])
  })

  it('counts an instance that left a managed group since the listing neither way', () => {
    const replaced = anInstance({ launchTime: minutesAgo(600) })
    expect(coveredIds(input, [running(replaced, 'web'), running(member, 'web')])).toEqual([member.id])
  })

  it('takes its own members as observed now, not as the listing read them', () => {
    const launchedSince = anInstance({ launchTime: minutesAgo(1) })
    const grown = aGroup([memberOf(member), memberOf(launchedSince)])
    const now = laneInput([grown], [grown], [member, launchedSince])
    expect(coveredIds(now, [running(member, 'web')])).toEqual([launchedSince.id])
  })
})

describe('regionUsage: lanes', () => {
  const first = anInstance({ launchTime: minutesAgo(30) })
  const second = anInstance({ launchTime: minutesAgo(20) })
  const laneA = aGroup([memberOf(first)], { name: 'lane-a' })
  const laneB = aGroup([memberOf(second)], { name: 'lane-b' })
  const listed = [running(first, 'lane-a'), running(second, 'lane-b')]
  const both = [laneA, laneB]

  it('keeps one member in all for one RI shared by two lanes: the newest, in its own lane', () => {
    const keptByA = coveredIds(laneInput([laneA], both, [first, second]), listed)
    const keptByB = coveredIds(laneInput([laneB], both, [first, second]), listed)
    expect([...keptByA, ...keptByB]).toEqual([second.id])
  })

  it('keeps one in each lane for two RIs', () => {
    const keptByA = coveredIds(laneInput([laneA], both, [first, second]), listed, 2)
    const keptByB = coveredIds(laneInput([laneB], both, [first, second]), listed, 2)
    expect([...keptByA, ...keptByB]).toEqual([first.id, second.id])
  })

  it("takes an unlisted group's instance as another lane's member when the run listed only its own groups", () => {
    // Taken as unmanaged, lane-a's older member would take the RI before lane-b's newer one.
    const partial: RegionUsageInput = {
      ...laneInput([laneB], both, [first, second]),
      regionGroups: undefined,
    }
    expect(coveredIds(partial, listed)).toEqual([second.id])
  })
})
