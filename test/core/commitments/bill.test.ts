import { describe, expect, it } from 'vitest'
import { billHour } from '../../../lambdas/core/commitments/bill.ts'
import { rateKey } from '../../../lambdas/core/commitments/types.ts'
import { commitments, LIST, plan, reservation, ri, usage } from '../../builders/commitments.ts'

/** Seconds of each line's hour billed on demand, by id. */
const onDemandSeconds = (bill: ReturnType<typeof billHour>): Record<string, number> =>
  Object.fromEntries(bill.lines.map((l) => [l.line.id, Math.round(l.onDemandSeconds)]))

describe('billHour: Reserved Instances', () => {
  it('applies a size-flexible regional RI by normalization factor: one m5.xlarge covers two m5.large', () => {
    const bill = billHour(
      [usage('a', 'm5.large'), usage('b', 'm5.large', { zone: 'us-east-1b' })],
      commitments({ reservedInstances: [ri('ri-1', 'm5.xlarge')] }),
    )
    expect(onDemandSeconds(bill)).toEqual({ a: 0, b: 0 })
    expect(bill.wasteUsd).toBeCloseTo(0, 9)
  })

  it('applies it from the smallest size up: the m5.large is covered before the m5.xlarge', () => {
    const bill = billHour(
      [usage('big', 'm5.xlarge'), usage('small', 'm5.large')],
      commitments({ reservedInstances: [ri('ri-1', 'm5.large')] }),
    )
    expect(onDemandSeconds(bill)).toEqual({ big: 3600, small: 0 })
  })

  it('covers part of a larger size with what is left: an m5.xlarge RI over one m5.large and one m5.2xlarge', () => {
    const bill = billHour(
      [usage('big', 'm5.2xlarge'), usage('small', 'm5.large')],
      commitments({ reservedInstances: [ri('ri-1', 'm5.xlarge')] }),
    )
    // 8 units: 4 for the large, 4 of the 2xlarge's 16 (a quarter of its hour).
    expect(onDemandSeconds(bill)).toEqual({ big: 2700, small: 0 })
  })

  it.each([
    ['Windows', { platform: 'Windows' }],
    ['Red Hat', { platform: 'Red Hat Enterprise Linux' }],
    ['SUSE', { platform: 'SUSE Linux' }],
    ['dedicated tenancy', { tenancy: 'dedicated' as const }],
  ])('matches a %s RI by exact size only', (_name, attributes) => {
    const bill = billHour(
      [usage('other-size', 'm5.large', attributes), usage('same-size', 'm5.xlarge', attributes)],
      commitments({ reservedInstances: [ri('ri-1', 'm5.xlarge', { ...attributes, count: 2 })] }),
    )
    expect(onDemandSeconds(bill)).toEqual({ 'other-size': 3600, 'same-size': 0 })
  })

  it('matches an RI of a family without size flexibility (g4dn) by exact size only', () => {
    const bill = billHour(
      [usage('other-size', 'g4dn.xlarge'), usage('same-size', 'g4dn.2xlarge')],
      commitments({ reservedInstances: [ri('ri-1', 'g4dn.2xlarge', { count: 2 })] }),
    )
    expect(onDemandSeconds(bill)).toEqual({ 'other-size': 3600, 'same-size': 0 })
  })

  it('applies a zonal RI only in its zone and to its exact type', () => {
    const bill = billHour(
      [
        usage('other-zone', 'm5.large', { zone: 'us-east-1b' }),
        usage('other-size', 'm5.xlarge'),
        usage('match', 'm5.large'),
      ],
      commitments({
        reservedInstances: [ri('ri-1', 'm5.large', { scope: 'zonal', zone: 'us-east-1a', count: 3 })],
      }),
    )
    expect(onDemandSeconds(bill)).toEqual({ 'other-zone': 3600, 'other-size': 3600, match: 0 })
  })

  it('covers at most 3,600 instance-seconds an hour: two half-hour instances share one RI, a third waits', () => {
    const bill = billHour(
      [
        usage('first', 'm5.large', { seconds: 1800 }),
        usage('second', 'm5.large', { seconds: 1800 }),
        usage('third', 'm5.large', { seconds: 1800 }),
      ],
      commitments({ reservedInstances: [ri('ri-1', 'm5.large')] }),
    )
    expect(onDemandSeconds(bill)).toEqual({ first: 0, second: 0, third: 1800 })
  })

  it('counts an RI nothing uses as waste, at its hourly rate', () => {
    const bill = billHour(
      [usage('a', 'c5.large')],
      commitments({ reservedInstances: [ri('ri-1', 'm5.large', { count: 2, hourlyRateUsd: 0.06 })] }),
    )
    expect(bill.wasteUsd).toBeCloseTo(0.12, 9)
    expect(bill.totalUsd).toBeCloseTo(0.12 + LIST['c5.large'], 9)
  })
})

describe('billHour: Savings Plans', () => {
  const rates = (entries: [type: string, rate: number][]) =>
    new Map(entries.map(([type, rate]) => [rateKey(type, 'us-east-1', 'Linux/UNIX', 'default'), rate]))

  it('applies after the RIs: usage an RI covers takes nothing of the plan', () => {
    const bill = billHour(
      [usage('a', 'm5.large')],
      commitments({
        reservedInstances: [ri('ri-1', 'm5.large')],
        savingsPlans: [plan('sp-1', { hourlyCommitmentUsd: 0.05, rates: rates([['m5.large', 0.06]]) })],
      }),
    )
    expect(bill.uses.find((u) => u.id === 'sp-1')?.used).toBe(0)
    expect(bill.wasteUsd).toBeCloseTo(0.05, 9)
  })

  it('applies EC2 Instance Savings Plans before Compute Savings Plans', () => {
    const bill = billHour(
      [usage('a', 'm5.large')],
      commitments({
        savingsPlans: [
          plan('compute', { hourlyCommitmentUsd: 0.07, rates: rates([['m5.large', 0.07]]) }),
          plan('instance', {
            kind: 'ec2-instance',
            family: 'm5',
            region: 'us-east-1',
            hourlyCommitmentUsd: 0.06,
            rates: rates([['m5.large', 0.06]]),
          }),
        ],
      }),
    )
    expect(bill.uses.find((u) => u.id === 'instance')?.used).toBeCloseTo(0.06, 9)
    expect(bill.uses.find((u) => u.id === 'compute')?.used).toBe(0)
  })

  it('covers the usage with the highest savings percentage first', () => {
    // c5.large saves 50%, m5.large 25%; the commitment pays for one of them.
    const bill = billHour(
      [usage('m5', 'm5.large'), usage('c5', 'c5.large')],
      commitments({
        savingsPlans: [
          plan('sp-1', {
            hourlyCommitmentUsd: 0.0425,
            rates: rates([
              ['m5.large', 0.072],
              ['c5.large', 0.0425],
            ]),
          }),
        ],
      }),
    )
    expect(onDemandSeconds(bill)).toEqual({ m5: 3600, c5: 0 })
  })

  it('covers part of an hour with what is left of the commitment, and bills the rest on demand', () => {
    const bill = billHour(
      [usage('a', 'm5.large')],
      commitments({
        savingsPlans: [plan('sp-1', { hourlyCommitmentUsd: 0.03, rates: rates([['m5.large', 0.06]]) })],
      }),
    )
    expect(onDemandSeconds(bill)).toEqual({ a: 1800 })
    expect(bill.totalUsd).toBeCloseTo(0.03 + 0.048, 9)
    expect(bill.wasteUsd).toBeCloseTo(0, 9)
  })

  it('counts the unused part of the commitment as waste', () => {
    const bill = billHour(
      [usage('a', 'm5.large')],
      commitments({
        savingsPlans: [plan('sp-1', { hourlyCommitmentUsd: 1, rates: rates([['m5.large', 0.06]]) })],
      }),
    )
    expect(bill.wasteUsd).toBeCloseTo(0.94, 9)
    expect(bill.totalUsd).toBeCloseTo(1, 9)
  })

  it('binds an EC2 Instance plan to its family and region', () => {
    const bill = billHour(
      [usage('other-family', 'c5.large'), usage('other-region', 'm5.large', { region: 'eu-west-1' })],
      commitments({
        savingsPlans: [
          plan('sp-1', { kind: 'ec2-instance', family: 'm5', region: 'us-east-1', discount: 0.3 }),
        ],
      }),
    )
    expect(onDemandSeconds(bill)).toEqual({ 'other-family': 3600, 'other-region': 3600 })
  })
})

describe('billHour: Capacity Reservations', () => {
  it('bills an empty slot of an open reservation at the on-demand rate, as waste', () => {
    const bill = billHour(
      [usage('a', 'm5.large')],
      commitments({ capacityReservations: [reservation('cr-1', 'm5.large', { count: 2 })] }),
    )
    expect(bill.totalUsd).toBeCloseTo(2 * LIST['m5.large'], 9)
    expect(bill.wasteUsd).toBeCloseTo(LIST['m5.large'], 9)
    expect(bill.lines[0]?.reservedCapacitySeconds).toBe(3600)
  })

  it('lets a regional RI pay for an empty slot, as AWS applies it to unused reservations', () => {
    const bill = billHour(
      [],
      commitments({
        capacityReservations: [reservation('cr-1', 'm5.large')],
        reservedInstances: [ri('ri-1', 'm5.large', { hourlyRateUsd: 0.06 })],
      }),
    )
    expect(bill.totalUsd).toBeCloseTo(0.06, 9)
  })

  it('keeps a targeted reservation for the instances that name it: none of ours uses it', () => {
    const bill = billHour(
      [usage('a', 'm5.large')],
      commitments({ capacityReservations: [reservation('cr-1', 'm5.large', { open: false })] }),
    )
    expect(bill.lines[0]?.reservedCapacitySeconds).toBe(0)
    expect(bill.wasteUsd).toBeCloseTo(LIST['m5.large'], 9)
  })
})
