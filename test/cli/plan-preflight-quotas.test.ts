import { describe, expect, it } from 'vitest'
import { quotaNeeds, spotQuotaOf } from '../../tools/cli/preflight-quotas.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'

describe('the Spot vCPU quota an instance type counts against', () => {
  it.each([
    ['m5.large', 'L-34B43A08'],
    ['t3.micro', 'L-34B43A08'],
    ['im4gn.large', 'L-34B43A08'],
    ['z1d.large', 'L-34B43A08'],
    ['inf2.xlarge', 'L-B5D1601B'],
    ['g5.xlarge', 'L-3819A6DF'],
    ['vt1.3xlarge', 'L-3819A6DF'],
    ['p3.2xlarge', 'L-7212CCBC'],
    ['p5.48xlarge', 'L-C4BD4855'],
    ['x2idn.16xlarge', 'L-E3A00192'],
    ['trn1.2xlarge', 'L-6B0D517C'],
    ['dl1.24xlarge', 'L-85EED4F7'],
    ['f1.2xlarge', 'L-88CF9481'],
  ])('%s → %s', (type, code) => {
    expect(spotQuotaOf(type)?.code).toBe(code)
  })

  it.each(['u-6tb1.metal', 'mac1.metal', 'hpc6a.48xlarge'])('knows no Spot quota for %s', (type) => {
    expect(spotQuotaOf(type)).toBeUndefined()
  })

  it('sums the vCPUs each quota must hold and sets apart types it cannot count', () => {
    const { needs, unknown } = quotaNeeds(
      ['m5.large', 'c5.xlarge', 'g5.xlarge', 'made.up'],
      embeddedCatalog(),
    )
    expect(needs.map((n) => [n.quota.code, n.vcpus, n.instances])).toEqual([
      ['L-34B43A08', 6, 2],
      ['L-3819A6DF', 4, 1],
    ])
    expect(unknown).toEqual(['made.up'])
  })
})
