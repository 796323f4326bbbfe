import { describe, expect, it } from 'vitest'
import {
  heldByUnverifiable,
  judgeMarkers,
  type MarkerRead,
  type MarkerVerdict,
  markerExpired,
  markerReads,
  splitMarker,
  withBelievedGroupMarkers,
  withBelievedInstanceMarkers,
  withMac,
} from '../../lambdas/core/markers.ts'
import type { Group, Instance } from '../../lambdas/core/types.ts'

const MAC = 'A'.repeat(43)
const NOW = new Date('2026-01-02T00:00:00Z')

const group = (tags: Record<string, string>, members: string[] = []): Group =>
  ({ name: 'web', tags, members: members.map((instanceId) => ({ instanceId })) }) as unknown as Group
const instance = (id: string, tags: Record<string, string>): Instance => ({ id, tags }) as unknown as Instance

describe('splitMarker', () => {
  it('splits a value into its payload and a 43-character MAC', () => {
    expect(splitMarker(withMac('2026-01-01T00:00:00.000Z', MAC))).toEqual({
      payload: '2026-01-01T00:00:00.000Z',
      mac: MAC,
    })
  })
  it.each([['2026-01-01T00:00:00.000Z'], [`x mac=${MAC.slice(1)}`], [`x mac=${MAC}!`]])(
    'finds no MAC in %s',
    (value) => expect(splitMarker(value)).toBeUndefined(),
  )
})

describe('markerExpired', () => {
  it.each([
    [
      'a swap record started within a swap’s longest life',
      'spotswap:swap',
      'v2 phase=waiting owner=2 pairs=1 started=2026-01-01T00:00:00.000Z',
      false,
    ],
    [
      'a swap record started before it',
      'spotswap:swap',
      'v2 phase=waiting owner=2 pairs=1 started=2025-12-31T22:00:00.000Z',
      true,
    ],
    ['a rebalance mark of this morning', 'spotswap:rebalance-at-risk', '2026-01-01T20:00:00.000Z', false],
    ['a rebalance mark of yesterday', 'spotswap:rebalance-at-risk', '2026-01-01T00:00:00.000Z', true],
    ['a swap id', 'spotswap:swap-id', 's1', false],
    // NOW is 2026-01-02T00:00Z; a revert's raise is believed until its deadline and an hour.
    [
      'a revert raise within an hour past its deadline',
      'spotswap:revert',
      'v1 phase=raising owner=3 since=2026-01-01T22:30:00.000Z until=2026-01-01T23:05:00.000Z',
      false,
    ],
    [
      'a revert raise replayed over an hour past its deadline',
      'spotswap:revert',
      'v1 phase=raising owner=3 since=2026-01-01T22:00:00.000Z until=2026-01-01T22:35:00.000Z',
      true,
    ],
    [
      'a revert retirement replayed over an hour past its deadline',
      'spotswap:revert',
      'v1 phase=retiring owner=3 step=i-0123456789abcdef0 until=2026-01-01T22:35:00.000Z',
      true,
    ],
    ['a requested revert, however old', 'spotswap:revert', 'v1 phase=requested failed=1', false],
    ['a stalled revert', 'spotswap:revert', 'v1 phase=stalled failed=3 why=not-launched', false],
  ])('%s: %s', (_, key, payload, expired) => expect(markerExpired(key, payload, NOW)).toBe(expired))
})

describe('judging markers', () => {
  const warned = `2026-01-01T23:59:00.000Z mac=${MAC}`
  const reads = (): MarkerRead[] =>
    markerReads(
      [group({ 'spotswap:swap': `v2 phase=waiting owner=2 pairs=1 mac=${MAC}`, team: 'a' })],
      [instance('i-1', { 'spotswap:interruption-warned': warned, Name: 'x' })],
    )

  it('reads every marker and nothing else', () => {
    expect(reads().map((r) => r.key)).toEqual(['spotswap:swap', 'spotswap:interruption-warned'])
  })

  it('reads a released swap’s id only on a member not yet seen serving', () => {
    const released = {
      'spotswap:released-swap-id': `s1 mac=${MAC}`,
      'spotswap:joined-group': `web mac=${MAC}`,
    }
    const keys = (tags: Record<string, string>) =>
      markerReads([], [instance('i-1', { ...released, ...tags })]).map((r) => r.key)
    expect(keys({ 'launched-for-asg': 'web' })).toEqual([
      'spotswap:joined-group',
      'spotswap:released-swap-id',
    ])
    expect(keys({})).toEqual(['spotswap:joined-group'])
  })

  it.each<[MarkerVerdict, string | undefined, string | undefined]>([
    ['valid', '2026-01-01T23:59:00.000Z', undefined],
    ['unsigned', undefined, 'unsigned'],
    ['bad-mac', undefined, 'bad-mac'],
  ])('a %s marker: believed as %s, reported as %s', (verdict, believed, reason) => {
    const judged = judgeMarkers(reads(), ['valid', verdict], NOW)
    const seen = withBelievedInstanceMarkers(
      instance('i-1', { 'spotswap:interruption-warned': warned, Name: 'x' }),
      judged,
    )
    expect(seen.tags['spotswap:interruption-warned']).toBe(believed)
    expect(seen.tags.Name).toBe('x')
    expect(judged.untrusted.map((u) => u.reason)).toEqual(reason === undefined ? [] : [reason])
  })

  it('treats a verified record past its life as absent, and reports it expired', () => {
    const old = `v2 phase=waiting owner=2 pairs=1 started=2025-12-30T00:00:00.000Z mac=${MAC}`
    const g = group({ 'spotswap:swap': old })
    const judged = judgeMarkers(markerReads([g], []), ['valid'], NOW)
    expect(withBelievedGroupMarkers(g, judged).tags['spotswap:swap']).toBeUndefined()
    expect(judged.untrusted).toEqual([{ resource: 'group:web', key: 'spotswap:swap', reason: 'expired' }])
  })

  it('never believes a version-1 record, which nothing signs', () => {
    const g = group({ 'spotswap:swap-desired': '3/1', 'spotswap:original-max-size': '2' })
    const judged = judgeMarkers(markerReads([g], []), ['unsigned', 'unsigned'], NOW)
    expect(withBelievedGroupMarkers(g, judged).tags).toEqual({})
  })

  it('holds the group of an unverifiable marker: a member’s, a launch’s, a partner’s', () => {
    const member = instance('i-1', {})
    const launch = instance('i-2', { 'launched-for-asg': 'web', 'launched-for-replacing-instance': 'i-3' })
    const partner = instance('i-3', {})
    const g = group({}, ['i-1'])
    const read = (id: string): MarkerRead => ({
      resource: { kind: 'instance', id },
      key: 'spotswap:swap-id',
      value: 'x',
    })
    for (const id of ['i-1', 'i-2', 'i-3'])
      expect([...heldByUnverifiable([read(id)], [g], [member, launch, partner]).groups.keys()]).toEqual([
        'web',
      ])
    expect([...heldByUnverifiable([read('i-3')], [g], [member, launch, partner]).instances].sort()).toEqual([
      'i-2',
      'i-3',
    ])
  })
})
