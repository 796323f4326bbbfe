import { describe, expect, it } from 'vitest'
import { coverageDetail, memberCoverage } from '../../../lambdas/core/commitments/coverage.ts'
import { rateKey } from '../../../lambdas/core/commitments/types.ts'
import { commitments, LIST, plan, reservation, ri, usage } from '../../builders/commitments.ts'

describe('memberCoverage', () => {
  it('lets unmanaged usage take an RI first: the managed member it would otherwise cover is not covered', () => {
    const covered = memberCoverage(
      [usage('managed', 'm5.large'), usage('unmanaged', 'm5.large', { managed: false })],
      commitments({ reservedInstances: [ri('ri-1', 'm5.large')] }),
    )
    expect(covered.size).toBe(0)
  })

  it('covers the managed members the RIs left by unmanaged usage pay for: effective rate 0', () => {
    const covered = memberCoverage(
      [usage('m-1', 'm5.large'), usage('m-2', 'm5.large'), usage('u', 'm5.large', { managed: false })],
      commitments({ reservedInstances: [ri('ri-1', 'm5.large', { count: 2 })] }),
    )
    expect([...covered.keys()]).toEqual(['m-1'])
    expect(covered.get('m-1')).toMatchObject({
      effectiveRateUsd: 0,
      coveredShare: 1,
      listRateUsd: LIST['m5.large'],
    })
    expect(covered.get('m-1')?.by).toEqual([
      {
        kind: 'reserved-instances',
        id: 'ri-1',
        attributes: 'regional m5.large size-flexible ×2, us-east-1, Linux/UNIX, default tenancy',
        managedCovered: 1,
      },
    ])
  })

  it('prices a partly covered member at the on-demand price of the part nothing covers', () => {
    const covered = memberCoverage(
      [usage('big', 'm5.xlarge')],
      commitments({ reservedInstances: [ri('ri-1', 'm5.large')] }),
    )
    expect(covered.get('big')).toMatchObject({ coveredShare: 0.5, effectiveRateUsd: LIST['m5.xlarge'] / 2 })
  })

  it('prices a member a Savings Plan covers at 0: the commitment is paid either way', () => {
    const covered = memberCoverage(
      [usage('a', 'm5.large')],
      commitments({
        savingsPlans: [
          plan('sp-1', {
            hourlyCommitmentUsd: 0.06,
            rates: new Map([[rateKey('m5.large', 'us-east-1', 'Linux/UNIX', 'default'), 0.06]]),
          }),
        ],
      }),
    )
    expect(covered.get('a')).toMatchObject({ effectiveRateUsd: 0, coveredShare: 1 })
  })

  it.each([
    [
      'running in an open reservation',
      { capacityReservations: [reservation('cr-1', 'm5.2xlarge', { zone: 'us-east-1d' })] },
    ],
    [
      'taken by an open reservation yet to start',
      {
        upcomingReservations: [
          {
            ...reservation('cr-1', 'm5.2xlarge', {
              zone: 'us-east-1d',
              startsAt: new Date('2026-06-01T06:00:00Z'),
            }),
            keepShare: 0.2,
          },
        ],
      },
    ],
  ])(
    'gives the RIs first to a member %s, which stays anyway: the member they would have covered is not kept',
    (_, held) => {
      const covered = memberCoverage(
        [usage('web', 'm5.large'), usage('render', 'm5.2xlarge', { zone: 'us-east-1d' })],
        commitments({ reservedInstances: [ri('ri-1', 'm5.large', { count: 4 })], ...held }),
      )
      expect([...covered.keys()]).toEqual(['render'])
      expect(covered.get('render')).toMatchObject({ effectiveRateUsd: 0, coveredShare: 1 })
      expect(
        covered
          .get('render')
          ?.by.map((b) => [b.kind, b.managedCovered])
          .sort(),
      ).toEqual([
        ['capacity-reservation', 1],
        ['reserved-instances', 1],
      ])
    },
  )

  it('prices a member in an open Capacity Reservation at 0: the slot is billed whether it runs or not', () => {
    const covered = memberCoverage(
      [usage('a', 'm5.large')],
      commitments({ capacityReservations: [reservation('cr-1', 'm5.large')] }),
    )
    expect(covered.get('a')).toMatchObject({ effectiveRateUsd: 0, coveredShare: 1 })
  })

  it('says what covers a member, how many managed instances it covers, and the rate after it', () => {
    const covered = memberCoverage(
      [usage('a', 'm5.large')],
      commitments({ reservedInstances: [ri('ri-1', 'm5.large')] }),
    )
    const coverage = covered.get('a')
    expect(coverage && coverageDetail(coverage)).toBe(
      '100% of its hour paid by reserved-instances ri-1 (regional m5.large size-flexible ×1, us-east-1, Linux/UNIX, default tenancy; covers 1 managed instance(s)); $0/h after commitments vs $0.096/h list',
    )
  })
})
