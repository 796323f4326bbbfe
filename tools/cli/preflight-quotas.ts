/**
 * Which Spot vCPU quota an instance type counts against, and what plan's conversion needs of each. EC2
 * keeps one Spot quota per group of instance families, in vCPUs, per account and region
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-spot-limits.html; the codes are those of the
 * Service Quotas console links on that page).
 */
import type { Catalog } from '../../lambdas/core/types.ts'

export interface SpotQuota {
  readonly code: string
  readonly name: string
}

const STANDARD: SpotQuota = {
  code: 'L-34B43A08',
  name: 'All Standard (A, C, D, H, I, M, R, T, Z) Spot Instance Requests',
}
// Mac, High Memory (u-) and HPC types are not sold as spot: no Spot quota applies.
const BY_PREFIX: readonly (readonly [RegExp, SpotQuota | undefined])[] = [
  [/^(mac|u-|hpc)/, undefined],
  [/^dl\d/, { code: 'L-85EED4F7', name: 'All DL Spot Instance Requests' }],
  [/^inf\d/, { code: 'L-B5D1601B', name: 'All Inf Spot Instance Requests' }],
  [/^trn\d/, { code: 'L-6B0D517C', name: 'All Trn Spot Instance Requests' }],
  [/^(g\d|vt\d)/, { code: 'L-3819A6DF', name: 'All G and VT Spot Instance Requests' }],
  [/^f\d/, { code: 'L-88CF9481', name: 'All F Spot Instance Requests' }],
  [/^p5/, { code: 'L-C4BD4855', name: 'All P5 Spot Instance Requests' }],
  [/^p[234]/, { code: 'L-7212CCBC', name: 'All P4, P3 and P2 Spot Instance Requests' }],
  [/^x\d/, { code: 'L-E3A00192', name: 'All X Spot Instance Requests' }],
  [/^[acdhimrtz]/, STANDARD],
]

/** The Spot quota a type counts against; undefined for a family with no known Spot quota (p6, u-, mac). */
export const spotQuotaOf = (instanceType: string): SpotQuota | undefined =>
  BY_PREFIX.find(([prefix]) => prefix.test(instanceType))?.[1]

export interface QuotaNeed {
  readonly quota: SpotQuota
  readonly vcpus: number
  readonly instances: number
}

/**
 * The vCPUs each quota must hold for the launches listed (one type per replaced instance). Types the
 * catalog does not know or with no known quota are returned apart, so the check can say so.
 */
export const quotaNeeds = (
  types: readonly string[],
  catalog: Catalog | undefined,
): { needs: QuotaNeed[]; unknown: string[] } => {
  const needs = new Map<string, QuotaNeed>()
  const unknown = new Set<string>()
  for (const type of types) {
    const quota = spotQuotaOf(type)
    const vcpus = catalog?.get(type)?.vcpus
    if (quota === undefined || vcpus === undefined) {
      unknown.add(type)
      continue
    }
    const sum = needs.get(quota.code)
    needs.set(quota.code, {
      quota,
      vcpus: (sum?.vcpus ?? 0) + vcpus,
      instances: (sum?.instances ?? 0) + 1,
    })
  }
  return { needs: [...needs.values()], unknown: [...unknown].sort() }
}
