import { describe, expect, it } from 'vitest'
import { billHour } from '../../../lambdas/core/commitments/bill.ts'
import { coverageDetail, memberCoverage } from '../../../lambdas/core/commitments/coverage.ts'
import { inEffectAt } from '../../../lambdas/core/commitments/in-effect.ts'
import { startedSince } from '../../../lambdas/core/commitments/upcoming.ts'
import { EMPTY_RESERVATION_SLOT_MS } from '../../../lambdas/core/constants.ts'
import { commitments, reservation, usage } from '../../builders/commitments.ts'

const NOW = new Date('2026-06-01T00:00:00Z')
const at = (ms: number): Date => new Date(NOW.getTime() + ms)
const HOUR = 3_600_000

describe('inEffectAt (future-dated Capacity Reservations)', () => {
  const listed = (cr: ReturnType<typeof reservation>) =>
    inEffectAt(commitments({ capacityReservations: [cr] }), NOW)
  const DAY = EMPTY_RESERVATION_SLOT_MS

  it('takes an open one that has not started as upcoming, not active', () => {
    const read = listed(reservation('cr-1', 'm5.large', { startsAt: at(6 * HOUR) }))
    expect(read.capacityReservations).toEqual([])
    expect(read.upcomingReservations?.map((cr) => cr.id)).toEqual(['cr-1'])
  })

  it.each([
    ['starts in 6 hours, its slot empty a day after', 6 * HOUR, undefined, (6 * HOUR) / (6 * HOUR + DAY)],
    ['starts in a day', DAY, undefined, 0.5],
    ['starts in 6 hours and lasts 2', 6 * HOUR, 2 * HOUR, 0.75],
  ])('weighs keeping a member at T / (T + U) of its rate when it %s', (_, startsIn, lasts, share) => {
    const read = inEffectAt(
      commitments({
        capacityReservations: [
          reservation('cr-1', 'm5.large', {
            startsAt: at(startsIn + 1),
            endsAt: lasts === undefined ? undefined : at(startsIn + 1 + lasts),
          }),
        ],
      }),
      at(1),
    )
    expect(read.upcomingReservations?.[0]?.keepShare).toBeCloseTo(share, 9)
  })

  it('keeps nothing for a targeted one: only instances launched into it use it', () => {
    const read = listed(reservation('cr-1', 'm5.large', { startsAt: at(HOUR), open: false }))
    expect(read.upcomingReservations).toBeUndefined()
  })

  it('counts one active from its start, though the cached listing read it as upcoming', () => {
    const before = listed(reservation('cr-1', 'm5.large', { startsAt: at(HOUR) }))
    const after = inEffectAt(before, at(HOUR))
    expect(after.capacityReservations.map((cr) => cr.id)).toEqual(['cr-1'])
    expect(after.upcomingReservations).toBeUndefined()
  })
})

describe('memberCoverage (upcoming Capacity Reservations)', () => {
  const upcoming = (count: number, keepShare = 0.2) =>
    commitments({
      upcomingReservations: [
        {
          ...reservation('cr-soon', 'm5.2xlarge', { count, zone: 'us-east-1d', startsAt: at(6 * HOUR) }),
          keepShare,
        },
      ],
    })
  const member = (id: string, overrides = {}) => usage(id, 'm5.2xlarge', { zone: 'us-east-1d', ...overrides })

  it('weighs the newest matching members, up to its count, at its keep share of their rate', () => {
    const covered = memberCoverage([member('new'), member('mid'), member('old')], upcoming(2))
    expect([...covered.keys()]).toEqual(['new', 'mid'])
    expect(covered.get('new')).toMatchObject({ effectiveRateUsd: 0.0768, coveredShare: 0 })
    expect(covered.get('new')?.by).toEqual([
      {
        kind: 'capacity-reservation',
        id: 'cr-soon',
        attributes: 'm5.2xlarge, us-east-1d, Linux/UNIX, default tenancy, ×2',
        managedCovered: 2,
        startsAt: at(6 * HOUR),
      },
    ])
  })

  it('lets matching unmanaged usage and active reservations take it first', () => {
    const covered = memberCoverage(
      [
        member('unmanaged-1', { managed: false }),
        member('unmanaged-2', { managed: false }),
        member('m-1'),
        member('m-2'),
        member('m-3'),
      ],
      commitments({
        capacityReservations: [reservation('cr-now', 'm5.2xlarge', { zone: 'us-east-1d' })],
        upcomingReservations: upcoming(2).upcomingReservations,
      }),
    )
    // cr-now takes unmanaged-1; of cr-soon's 2 slots, unmanaged-2 takes one and the newest member the other.
    expect([...covered.keys()]).toEqual(['m-1'])
    expect(covered.get('m-1')?.by.map((b) => b.id)).toEqual(['cr-soon'])
  })

  it('matches type, zone, platform and tenancy exactly', () => {
    const covered = memberCoverage(
      [
        member('other-zone', { zone: 'us-east-1a' }),
        usage('other-type', 'm5.large', { zone: 'us-east-1d' }),
        member('windows', { platform: 'Windows' }),
        member('dedicated', { tenancy: 'dedicated' }),
      ],
      upcoming(4),
    )
    expect(covered.size).toBe(0)
  })

  it('says when it starts in the commitment-covered detail', () => {
    const covered = memberCoverage([member('a')], upcoming(1))
    const detail = coverageDetail(covered.get('a') ?? expect.fail('not covered'))
    expect(detail).toBe(
      'starts 2026-06-01T06:00:00.000Z: capacity-reservation cr-soon (m5.2xlarge, us-east-1d, Linux/UNIX, default tenancy, ×1; covers 1 managed instance(s)) will take it, and spotswap launches no on-demand instance to fill it later; $0.0768/h after commitments vs $0.384/h list',
    )
  })

  it('is not billed before its start: no waste line for its empty slots', () => {
    const bill = billHour([member('a')], upcoming(2))
    expect(bill.wasteUsd).toBe(0)
    expect(bill.lines.map((l) => l.line.id)).toEqual(['a'])
  })
})

describe('startedSince (a region listing read before a reservation became active)', () => {
  const READ = NOW.getTime()
  // The instances running when an open one becomes active run in it: a listing from before cannot tell which.
  it.each([
    ['an open one that started after the read', { startsAt: at(HOUR) }, at(HOUR), true],
    ['one that has not started yet', { startsAt: at(HOUR) }, at(HOUR - 1), false],
    ['one that started before the read', { startsAt: at(-1) }, at(HOUR), false],
    ['one read as active, with no start', {}, at(HOUR), false],
    [
      'a targeted one: no running instance moves into it',
      { startsAt: at(HOUR), open: false },
      at(HOUR),
      false,
    ],
    ['one that ended since', { startsAt: at(HOUR), endsAt: at(2 * HOUR) }, at(2 * HOUR), false],
  ])('%s', (_, dates, now, stale) => {
    const listed = commitments({ capacityReservations: [reservation('cr-1', 'm5.large', dates)] })
    expect(startedSince(listed, READ, now)).toBe(stale)
  })
})
