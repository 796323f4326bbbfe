/**
 * COMMITMENTS: where a region's commitments come from. `account` (default): this account's own reads.
 * `ignore`: none, every on-demand member above the minimum is replaced (spotswap before commitments).
 * Otherwise the commitments themselves, declared, for organizations whose RIs and Savings Plans are held
 * by another account spotswap cannot read: `;`-separated entries,
 *   `ri <region|zone> <count> <type> [linux|windows|rhel|suse] [dedicated]`  Reserved Instances
 *   `sp <region> <usd-per-hour> <discount>% [family]`  a Savings Plan's share of this region: Compute, or
 *                                                      EC2 Instance when a family is named
 * e.g. `ri us-east-1 4 m5.large; ri us-east-1a 2 c5.xlarge windows; sp us-east-1 2.50 28% m5`.
 */

import { bad, ok, type Parsed } from '../config/values.ts'
import { LINUX } from '../platform.ts'
import type { Commitments, ReservedInstances, SavingsPlan, Tenancy } from './types.ts'

export type CommitmentsSetting =
  | { readonly mode: 'account' }
  | { readonly mode: 'ignore' }
  | { readonly mode: 'declared'; readonly declared: Commitments }

export const DEFAULT_COMMITMENTS: CommitmentsSetting = { mode: 'account' }

const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/
const ZONE = /^[a-z]{2}(-[a-z]+)+-\d+[a-z]$/
const TYPE = /^[a-z][a-z0-9-]*\.[a-z0-9]+$/
const FAMILY = /^[a-z][a-z0-9-]*$/
const DECIMAL = /^\d+(\.\d+)?$/

const PLATFORMS: Readonly<Record<string, string>> = {
  linux: LINUX,
  windows: 'Windows',
  rhel: 'Red Hat Enterprise Linux',
  suse: 'SUSE Linux',
}

const SYNTAX =
  '`account`, `ignore`, or `;`-separated entries `ri <region|zone> <count> <type> [linux|windows|rhel|suse] [dedicated]` and `sp <region> <usd-per-hour> <discount>% [family]`'

type Entry = { readonly ri: ReservedInstances } | { readonly sp: SavingsPlan }

const parseRi = (id: string, words: readonly string[]): Parsed<Entry> => {
  const [where = '', count = '', type = '', ...rest] = words
  const zonal = ZONE.test(where)
  if (!zonal && !REGION.test(where)) return bad(`a region or zone, not \`${where}\``)
  if (!/^[1-9]\d{0,5}$/.test(count)) return bad(`a count of instances (1 or more), not \`${count}\``)
  if (!TYPE.test(type)) return bad(`an instance type such as m5.large, not \`${type}\``)
  let platform = LINUX
  let tenancy: Tenancy = 'default'
  for (const word of rest) {
    if (word === 'dedicated') tenancy = 'dedicated'
    else if (PLATFORMS[word] !== undefined) platform = PLATFORMS[word]
    else return bad(`linux, windows, rhel, suse or dedicated, not \`${word}\``)
  }
  return ok({
    ri: {
      id,
      scope: zonal ? 'zonal' : 'regional',
      type,
      zone: zonal ? where : undefined,
      region: zonal ? where.slice(0, -1) : where,
      platform,
      tenancy,
      count: Number(count),
      // Declared commitments carry no price: their waste is counted in instances, not dollars.
      hourlyRateUsd: 0,
    },
  })
}

const parseSp = (id: string, words: readonly string[]): Parsed<Entry> => {
  const [region = '', usd = '', discount = '', family, ...rest] = words
  if (!REGION.test(region)) return bad(`a region, not \`${region}\``)
  if (!DECIMAL.test(usd) || Number(usd) <= 0) return bad(`dollars per hour above 0, not \`${usd}\``)
  const percent = /^(\d+(\.\d+)?)%$/.exec(discount)?.[1]
  if (percent === undefined || Number(percent) <= 0 || Number(percent) >= 100)
    return bad(`a discount between 0% and 100% such as 28%, not \`${discount}\``)
  if (family !== undefined && !FAMILY.test(family))
    return bad(`an instance family such as m5, not \`${family}\``)
  if (rest.length > 0) return bad(`nothing after the family, not \`${rest.join(' ')}\``)
  return ok({
    sp: {
      id,
      kind: family === undefined ? 'compute' : 'ec2-instance',
      family,
      region,
      hourlyCommitmentUsd: Number(usd),
      rates: new Map(),
      discount: Number(percent) / 100,
    },
  })
}

const parseEntry = (entry: string, index: number): Parsed<Entry> => {
  const [kind, ...words] = entry.split(/\s+/)
  const id = `declared-${index + 1}`
  const parsed =
    kind === 'ri' ? parseRi(id, words) : kind === 'sp' ? parseSp(id, words) : bad<Entry>('`ri` or `sp`')
  return parsed.ok ? parsed : bad(`entry ${index + 1} (\`${entry}\`): ${parsed.expected}`)
}

export const parseCommitments = (raw: string): Parsed<CommitmentsSetting> => {
  const value = raw.trim()
  if (value === 'account' || value === 'ignore') return ok({ mode: value })
  const entries = value
    .split(';')
    .map((e) => e.trim())
    .filter((e) => e !== '')
  if (entries.length === 0) return bad(SYNTAX)
  const reservedInstances: ReservedInstances[] = []
  const savingsPlans: SavingsPlan[] = []
  for (const [index, entry] of entries.entries()) {
    const parsed = parseEntry(entry, index)
    if (!parsed.ok) return bad(`${SYNTAX}; ${parsed.expected}`)
    if ('ri' in parsed.value) reservedInstances.push(parsed.value.ri)
    else savingsPlans.push(parsed.value.sp)
  }
  return ok({ mode: 'declared', declared: { reservedInstances, savingsPlans, capacityReservations: [] } })
}

/** The declared commitments that apply in one region. */
export const declaredIn = (declared: Commitments, region: string): Commitments => ({
  reservedInstances: declared.reservedInstances.filter((ri) => ri.region === region),
  savingsPlans: declared.savingsPlans.filter((sp) => sp.region === region),
  capacityReservations: declared.capacityReservations.filter((cr) => cr.region === region),
})
