/**
 * A region's `commitments`, once the schema has passed them: types of the embedded catalogue with an
 * on-demand price, zones of the region, a Savings Plan's family only where its kind has one, and each
 * `end` after its `start`. Defaults filled in: in effect for the whole run, Linux/UNIX, default tenancy,
 * open Capacity Reservations, an RI at 60% of the on-demand price.
 */
import { familyOf } from '../../../lambdas/core/commitments/normalization.ts'
import { rateKey, type Tenancy } from '../../../lambdas/core/commitments/types.ts'
import type { Catalog } from '../../../lambdas/core/types.ts'
import { embeddedOnDemandPrices } from '../../../lambdas/data/on-demand-prices.ts'
import { childPath, type Problems } from './check.ts'
import type { CommitmentsFile, SavingsPlanFile } from './file-format.ts'
import type { InEffect, ScenarioCommitments } from './types.ts'

/** A modelling default: a one-year standard RI's effective rate is commonly about 40% below on demand. */
export const DEFAULT_RI_SHARE_OF_ON_DEMAND = 0.6
/** Modelling defaults when no rates are given: Compute plans discount less than EC2 Instance plans. */
export const DEFAULT_PLAN_DISCOUNT = { compute: 0.28, 'ec2-instance': 0.4 } as const

const LINUX = 'Linux/UNIX'

interface RegionCommitmentContext {
  readonly region: string
  readonly zones: readonly string[]
  readonly catalog: Catalog
}

interface Placed {
  readonly type: string
  readonly zone?: string | undefined
  readonly platform?: string | undefined
  readonly start?: string | undefined
  readonly end?: string | undefined
}

const inEffect = (problems: Problems, path: string, item: Placed): InEffect => {
  const startMs =
    item.start === undefined ? Number.NEGATIVE_INFINITY : problems.time(childPath(path, 'start'), item.start)
  const endMs =
    item.end === undefined ? Number.POSITIVE_INFINITY : problems.time(childPath(path, 'end'), item.end)
  if (endMs <= startMs) problems.fail(childPath(path, 'end'), 'a time after its start', item.end)
  return { startMs, endMs }
}

/** The on-demand price of the item's type (0 when it has none, with a problem). */
const checkPlaced = (
  problems: Problems,
  path: string,
  item: Placed,
  ctx: RegionCommitmentContext,
): number => {
  if (item.zone !== undefined && !ctx.zones.includes(item.zone))
    problems.fail(childPath(path, 'zone'), `one of the region's zones (${ctx.zones.join(', ')})`, item.zone)
  const price = embeddedOnDemandPrices(ctx.region, item.platform ?? LINUX).prices.get(item.type)
  if (!ctx.catalog.has(item.type) || price === undefined) {
    problems.fail(
      childPath(path, 'type'),
      'an instance type of the embedded catalogue with an on-demand price',
      item.type,
    )
    return 0
  }
  return price
}

const planOf = (
  problems: Problems,
  path: string,
  plan: SavingsPlanFile,
  i: number,
  ctx: RegionCommitmentContext,
) => {
  if (plan.kind === 'ec2-instance' && plan.family === undefined)
    problems.fail(childPath(path, 'family'), 'the family an EC2 Instance Savings Plan applies to', undefined)
  if (plan.kind === 'compute' && plan.family !== undefined)
    problems.fail(
      childPath(path, 'family'),
      'no family: a Compute Savings Plan covers every family',
      plan.family,
    )
  const rates = new Map<string, number>()
  for (const [type, rate] of Object.entries(plan.rates ?? {})) {
    if (!ctx.catalog.has(type))
      problems.fail(
        childPath(childPath(path, 'rates'), type),
        'an instance type of the embedded catalogue',
        type,
      )
    else if (plan.family !== undefined && familyOf(type) !== plan.family)
      problems.fail(childPath(childPath(path, 'rates'), type), `a type of family ${plan.family}`, type)
    rates.set(rateKey(type, ctx.region, LINUX, 'default'), rate)
  }
  return {
    id: `sp-sim-${ctx.region}-${i + 1}`,
    kind: plan.kind,
    family: plan.family,
    region: plan.kind === 'ec2-instance' ? ctx.region : undefined,
    hourlyCommitmentUsd: plan.hourlyCommitmentUsd,
    rates,
    discount: plan.discount ?? DEFAULT_PLAN_DISCOUNT[plan.kind],
    ...inEffect(problems, path, { type: '', ...plan }),
  }
}

/** EC2's ids: `cr-` and 17 hex digits. */
const reservationId = (region: string, i: number): string =>
  `cr-${(region.length * 0x10000 + i + 1).toString(16).padStart(17, '0')}`

export const parseCommitments = (
  problems: Problems,
  path: string,
  file: CommitmentsFile,
  ctx: RegionCommitmentContext,
): ScenarioCommitments => {
  const listPath = (name: string, i: number) => childPath(childPath(path, name), i)
  const tenancy = (t: Tenancy | undefined): Tenancy => t ?? 'default'
  return {
    reservedInstances: (file.reservedInstances ?? []).map((ri, i) => {
      const at = listPath('reservedInstances', i)
      const price = checkPlaced(problems, at, ri, ctx)
      return {
        id: `ri-sim-${ctx.region}-${i + 1}`,
        scope: ri.zone === undefined ? 'regional' : 'zonal',
        type: ri.type,
        zone: ri.zone,
        region: ctx.region,
        platform: ri.platform ?? LINUX,
        tenancy: tenancy(ri.tenancy),
        count: ri.count,
        hourlyRateUsd: ri.hourlyRateUsd ?? price * DEFAULT_RI_SHARE_OF_ON_DEMAND,
        ...inEffect(problems, at, ri),
      }
    }),
    savingsPlans: (file.savingsPlans ?? []).map((plan, i) =>
      planOf(problems, listPath('savingsPlans', i), plan, i, ctx),
    ),
    capacityReservations: (file.capacityReservations ?? []).map((cr, i) => {
      const at = listPath('capacityReservations', i)
      return {
        id: reservationId(ctx.region, i),
        type: cr.type,
        zone: cr.zone,
        region: ctx.region,
        platform: cr.platform ?? LINUX,
        tenancy: tenancy(cr.tenancy),
        count: cr.count,
        open: (cr.matchCriteria ?? 'open') === 'open',
        onDemandRateUsd: checkPlaced(problems, at, cr, ctx),
        ...inEffect(problems, at, cr),
      }
    }),
    unmanagedUsage: (file.unmanagedUsage ?? []).map((usage, i) => {
      const at = listPath('unmanagedUsage', i)
      checkPlaced(problems, at, usage, ctx)
      return {
        type: usage.type,
        zone: usage.zone,
        count: usage.count,
        platform: usage.platform ?? LINUX,
        tenancy: tenancy(usage.tenancy),
        ...inEffect(problems, at, usage),
      }
    }),
  }
}
