/**
 * A swap of more than 20 pairs whose attach stopped between chunks: which pairs it holds, and which of its
 * launches are proven never attached.
 */
import { describe, expect, it } from 'vitest'
import { TAG_JOINED_GROUP, TAG_REPLACING_INSTANCE, TAG_SWAP_ID } from '../../../lambdas/core/constants.ts'
import { judgePartialAttach } from '../../../lambdas/core/swap/partial-attach.ts'
import type { SwapRecord } from '../../../lambdas/core/swap/record.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { NOW, onDemandFleet, spotFor } from '../../builders/world.ts'

const OWNER = 41
const partners = onDemandFleet(41)

const attaching = (attached?: number): SwapRecord => ({
  version: 2,
  id: 's1',
  phase: 'attaching',
  ownerDesired: OWNER,
  pairs: 41,
  step: undefined,
  originalMaxSize: OWNER,
  raisedMaxSize: 2 * OWNER,
  startedAt: NOW,
  ...(attached === undefined ? {} : { attached }),
})

/** The swap's launches, each carrying its id; the first `joined` marked as members by a confirmed chunk. */
const launches = (from: number, to: number, joined = false): Instance[] =>
  partners.slice(from, to).map((partner) =>
    spotFor(partner, {
      tags: {
        [TAG_REPLACING_INSTANCE]: partner.id,
        [TAG_SWAP_ID]: 's1',
        ...(joined ? { [TAG_JOINED_GROUP]: 'web' } : {}),
      },
    }),
  )

describe('judgePartialAttach', () => {
  const first = launches(0, 20, true)
  const second = launches(20, 40, true)
  const last = launches(40, 41)

  it('terminates the launches of the chunks after the last confirmed one, the run having died before them', () => {
    const never = launches(20, 41)
    const judged = judgePartialAttach(attaching(20), OWNER + 20, first, never)
    expect(judged).toMatchObject({
      kind: 'partial',
      record: { pairs: 20, attached: undefined },
      undecided: [],
    })
    expect(judged.kind === 'partial' && judged.unattached).toEqual(never)
  })

  it('proves a chunk attached but not confirmed by its members still in the group', () => {
    const unconfirmed = launches(20, 40)
    const judged = judgePartialAttach(attaching(20), OWNER + 40, [...first, ...unconfirmed], last)
    expect(judged).toMatchObject({ kind: 'partial', record: { pairs: 40 }, unattached: last, undecided: [] })
  })

  it('reads a record written before chunks were counted: every attached replacement unconfirmed', () => {
    const members = launches(0, 20)
    const judged = judgePartialAttach(attaching(), OWNER + 20, members, launches(20, 41))
    expect(judged.kind === 'partial' && judged.unattached).toHaveLength(21)
  })

  it('counts the members a chunk confirmed when the run died before the record counted them', () => {
    // The first chunk's members carry TAG_JOINED_GROUP; the record's `attached` was never written.
    const never = launches(20, 41)
    const judged = judgePartialAttach(attaching(), OWNER + 20, first, never)
    expect(judged).toMatchObject({ kind: 'partial', record: { pairs: 20 }, undecided: [] })
    expect(judged.kind === 'partial' && judged.unattached).toEqual(never)
  })

  it('leaves the launches alone when an unconfirmed replacement may have left the group since', () => {
    // 20 attached without confirmation, 19 of them in the group: the 20th may be any launch outside it.
    const judged = judgePartialAttach(attaching(), OWNER + 20, launches(0, 19), launches(20, 41))
    expect(judged).toMatchObject({ kind: 'partial', record: { pairs: 20 }, unattached: [] })
    expect(judged.kind === 'partial' && judged.undecided.map((u) => u.code)).toEqual(
      Array(21).fill('joined-a-group'),
    )
  })

  it('never counts a launch a confirmed chunk attached among those that never joined', () => {
    // The owner detached one confirmed replacement and kept it: it carries TAG_JOINED_GROUP.
    const detached = first[0] as Instance
    const judged = judgePartialAttach(attaching(20), OWNER + 20, first.slice(1), [detached, ...last])
    expect(judged.kind === 'partial' && judged.unattached).toEqual(last)
  })

  it.each([
    ['the whole attach happened', attaching(40), OWNER + 41],
    ['nothing attached', attaching(), OWNER],
    ['the owner scaled in below their figure', attaching(), OWNER - 1],
    ['the attach was confirmed', { ...attaching(), phase: 'waiting' as const }, OWNER + 20],
    ['a record without an id', { ...attaching(), id: undefined }, OWNER + 20],
  ])('is no partial attach when %s', (_, record, desired) => {
    expect(judgePartialAttach(record, desired, [...first, ...second], last)).toEqual({ kind: 'none' })
  })
})
