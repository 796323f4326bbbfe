import { describe, expect, it } from 'vitest'
import {
  listingDoubts,
  runningOnDemandOf,
  settledListing,
} from '../../../lambdas/core/commitments/listing-doubts.ts'
import {
  type RegionUsageInput,
  regionCoverage,
  regionUsage,
} from '../../../lambdas/core/commitments/region-usage.ts'
import type { RunningOnDemand } from '../../../lambdas/core/commitments/types.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { commitments, laneInput, listedRunning as listed, ri } from '../../builders/commitments.ts'
import { aGroup, anInstance, memberOf, minutesAgo } from '../../builders/world.ts'

const withGroupTag = (instance: Instance, group: string): Instance => ({
  ...instance,
  tags: { ...instance.tags, 'aws:autoscaling:groupName': group },
})

/** This lane's members one RI (×`held`) covers, the listing settled with what a read by id returned. */
const keptWith = (
  input: RegionUsageInput,
  listing: readonly RunningOnDemand[],
  read: readonly Instance[],
) => {
  const doubts = listingDoubts(input, listing, undefined)
  const usage = regionUsage(input, settledListing(listing, doubts, read))
  const covered = regionCoverage(usage, commitments({ reservedInstances: [ri('ri-1', 'm5.large')] }))
  const own = new Set(input.groups.flatMap((g) => g.group.members.map((m) => m.instanceId)))
  return [...(covered?.keys() ?? [])].filter((id) => own.has(id))
}

describe('listingDoubts: a listed instance that left a managed group', () => {
  const member = anInstance({ launchTime: minutesAgo(10) })
  const web = aGroup([memberOf(member)])
  const input = laneInput([web], [web], [member])
  const left = anInstance({ launchTime: minutesAgo(600) })

  it('asks for it by id, and for nothing while the listing and the groups agree', () => {
    expect(listingDoubts(input, [listed(left, 'web'), listed(member, 'web')], undefined)).toEqual([left.id])
    expect(listingDoubts(input, [listed(member, 'web')], undefined)).toEqual([])
  })

  it('lets a detached instance still running take the RI first: the member is not kept for it', () => {
    // Seed 11714: the owner detached a member in the Capacity Reservation's zone; it ran on, in the reservation.
    const running = withGroupTag(left, 'web')
    expect(keptWith(input, [listed(left, 'web'), listed(member, 'web')], [running])).toEqual([])
  })

  it('counts one terminated since the listing neither way: the member stays kept', () => {
    const gone = withGroupTag({ ...left, state: 'terminated' }, 'web')
    expect(keptWith(input, [listed(left, 'web'), listed(member, 'web')], [gone])).toEqual([member.id])
    expect(keptWith(input, [listed(left, 'web'), listed(member, 'web')], [])).toEqual([member.id])
  })

  it('counts it neither way while it is unread, as before the read', () => {
    const listing = [listed(left, 'web'), listed(member, 'web')]
    expect(
      regionCoverage(
        regionUsage(input, listing),
        commitments({ reservedInstances: [ri('ri-1', 'm5.large')] }),
      )?.has(member.id),
    ).toBe(true)
  })
})

describe("listingDoubts: another lane's member the listing does not hold", () => {
  const mine = anInstance({ launchTime: minutesAgo(30) })
  const laneA = aGroup([memberOf(mine)], { name: 'lane-a' })
  const theirs = anInstance({ launchTime: minutesAgo(1) })
  const spot = anInstance({ lifecycle: 'spot' })
  const laneB = aGroup([memberOf(theirs), memberOf(spot)], { name: 'lane-b' })
  const input = laneInput([laneA], [laneA, laneB], [mine])
  const listing = [listed(mine, 'lane-a')]

  it('asks for the members the listing never saw, not for those it saw as spot', () => {
    expect(listingDoubts(input, listing, [mine.id, spot.id])).toEqual([theirs.id])
    expect(listingDoubts(input, listing, [mine.id, spot.id, theirs.id])).toEqual([])
  })

  it('asks for none without the listing’s running ids, or when the run listed only its own groups', () => {
    expect(listingDoubts(input, listing, undefined)).toEqual([])
    expect(listingDoubts({ ...input, regionGroups: undefined }, listing, [mine.id])).toEqual([])
  })

  it('gives the RI to the other lane’s newer on-demand member once read: this lane keeps nothing for it', () => {
    // Seed 11632: lane-b scaled out after the listing was cached; its new members were the region's newest.
    const doubts = listingDoubts(input, listing, [mine.id, spot.id])
    const usage = regionUsage(input, settledListing(listing, doubts, [withGroupTag(theirs, 'lane-b')]))
    const covered = regionCoverage(usage, commitments({ reservedInstances: [ri('ri-1', 'm5.large')] }))
    expect([...(covered?.keys() ?? [])]).toEqual([theirs.id])
  })
})

describe('runningOnDemandOf', () => {
  it.each([
    ['a spot instance', anInstance({ lifecycle: 'spot' })],
    ['a stopped one', anInstance({ state: 'stopped' })],
    ['a shutting-down one', anInstance({ state: 'shutting-down' })],
  ])('leaves out %s', (_, instance) => {
    expect(runningOnDemandOf(instance)).toBeUndefined()
  })

  it('reads a running on-demand instance as the listing would, marked read now', () => {
    const instance = withGroupTag(anInstance({ platform: 'Windows' }), 'web')
    expect(runningOnDemandOf(instance)).toEqual({
      id: instance.id,
      type: 'm5.large',
      zone: 'us-east-1a',
      platform: 'Windows',
      tenancy: 'default',
      launchTimeMs: instance.launchTime.getTime(),
      group: 'web',
      readNow: true,
    })
  })
})
