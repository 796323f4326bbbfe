import { describe, expect, it } from 'vitest'
import {
  TAG_INTERRUPTION_WARNED,
  TAG_JOINED_GROUP,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_MAINTENANCE,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACED_TYPE,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../../lambdas/core/constants.ts'
import { instancesActedOn, withoutInstanceMarkers } from '../../lambdas/core/marker-relevance.ts'
import type { Group, Instance } from '../../lambdas/core/types.ts'

const group = (name: string, members: string[], tags: Record<string, string> = {}): Group =>
  ({ name, tags, members: members.map((instanceId) => ({ instanceId })) }) as unknown as Group
const instance = (id: string, tags: Record<string, string>): Instance => ({ id, tags }) as unknown as Instance

/** A converged member: the two markers it keeps for good. */
const settled = (id: string, groupName = 'web') =>
  instance(id, { [TAG_JOINED_GROUP]: groupName, [TAG_SWAP_ID]: 's1', [TAG_REPLACED_TYPE]: 'm5.large' })

const ownGroupsOnly = (names: string[]) => (name: string) => names.includes(name)

describe('instancesActedOn', () => {
  it('verifies no marker of the settled members of a group without a group marker', () => {
    const web = group('web', ['i-1', 'i-2'])
    const ids = instancesActedOn({ groups: [web], judgesLaunchesFor: ownGroupsOnly(['web']) }, [
      settled('i-1'),
      settled('i-2'),
    ])
    expect([...ids]).toEqual([])
  })

  it.each([
    ['a swap record', TAG_SWAP],
    ['a maintenance raise', TAG_MAINTENANCE],
  ])('verifies every member of a group carrying %s', (_, key) => {
    const web = group('web', ['i-1', 'i-2'], { [key]: 'anything' })
    const ids = instancesActedOn({ groups: [web], judgesLaunchesFor: ownGroupsOnly(['web']) }, [
      settled('i-1'),
      settled('i-2'),
    ])
    expect([...ids].sort()).toEqual(['i-1', 'i-2'])
  })

  it.each([
    ['a warning', TAG_INTERRUPTION_WARNED],
    ['a rebalance mark', TAG_REBALANCE_AT_RISK],
    ['a replacement attempt', TAG_REPLACEMENT_ATTEMPT],
  ])('verifies a settled member carrying %s, and only it', (_, key) => {
    const web = group('web', ['i-1', 'i-2'])
    const marked = instance('i-1', { ...settled('i-1').tags, [key]: '2026-01-01T00:00:00.000Z' })
    const ids = instancesActedOn({ groups: [web], judgesLaunchesFor: ownGroupsOnly(['web']) }, [
      marked,
      settled('i-2'),
    ])
    expect([...ids]).toEqual(['i-1'])
  })

  it('verifies a member not yet seen serving and the partner it names', () => {
    const web = group('web', ['i-1', 'i-2'])
    const attached = instance('i-2', {
      [TAG_LAUNCHED_FOR_GROUP]: 'web',
      [TAG_REPLACING_INSTANCE]: 'i-0',
      [TAG_SWAP_ID]: 's1',
    })
    const ids = instancesActedOn({ groups: [web], judgesLaunchesFor: ownGroupsOnly(['web']) }, [
      settled('i-1'),
      attached,
      instance('i-0', { [TAG_REPLACEMENT_ATTEMPT]: '1:i-2@2026-01-01T00:00:00.000Z' }),
    ])
    expect([...ids].sort()).toEqual(['i-0', 'i-2'])
  })

  it('verifies the launches the run judges and their partners, not those of groups it does not plan', () => {
    const web = group('web', [])
    const launch = (id: string, owner: string, partner: string) =>
      instance(id, {
        [TAG_LAUNCHED_FOR_GROUP]: owner,
        [TAG_REPLACING_INSTANCE]: partner,
        [TAG_SWAP_ID]: 's1',
      })
    const ids = instancesActedOn({ groups: [web], judgesLaunchesFor: ownGroupsOnly(['web', 'gone']) }, [
      launch('i-ours', 'web', 'i-p1'),
      launch('i-stray', 'gone', 'i-p2'),
      launch('i-other-lane', 'api', 'i-p3'),
      settled('i-p1'),
      settled('i-p2'),
      settled('i-p3', 'api'),
    ])
    expect([...ids].sort()).toEqual(['i-ours', 'i-p1', 'i-p2', 'i-stray'])
  })

  it('verifies no marker of another group’s settled members, even one carrying a warning', () => {
    const web = group('web', ['i-1'])
    const api = instance('i-9', { ...settled('i-9', 'api').tags, [TAG_INTERRUPTION_WARNED]: 'x' })
    const ids = instancesActedOn({ groups: [web], judgesLaunchesFor: ownGroupsOnly(['web']) }, [api])
    expect([...ids]).toEqual([])
  })
})

describe('withoutInstanceMarkers', () => {
  it('drops every marker and keeps the plain tags', () => {
    expect(withoutInstanceMarkers(settled('i-1')).tags).toEqual({ [TAG_REPLACED_TYPE]: 'm5.large' })
  })
})
