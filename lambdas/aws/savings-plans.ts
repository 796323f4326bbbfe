/**
 * The account's active Savings Plans and, for the ones that can apply in a region, their rates for the
 * instance types the region runs on demand: DescribeSavingsPlans and DescribeSavingsPlanRates, through the
 * one global endpoint (limits.ts), each cached COMMITMENTS_CACHE_TTL_MS. Errors reach commitments.ts, which
 * keeps the RIs and reservations it read and says the plans are unreadable.
 */
import type {
  SavingsPlan as SdkSavingsPlan,
  SavingsPlanRate as SdkSavingsPlanRate,
} from '@aws-sdk/client-savingsplans'
import type { SavingsPlan, Tenancy } from '../core/commitments/types.ts'
import { rateKey } from '../core/commitments/types.ts'
import type { ActiveSavingsPlan, AwsContext } from './context.ts'
import { collectPages } from './paginate.ts'
import type { SavingsPlansApi } from './sdk.ts'

/** DescribeSavingsPlanRates answers at most 1,000 rates a page (its maxResults range). */
const RATES_PAGE_SIZE = 1000

/** The product descriptions a rate may name that spotswap prices (core/platform.ts); others are left out. */
const PLATFORMS: ReadonlySet<string> = new Set([
  'Linux/UNIX',
  'Windows',
  'Red Hat Enterprise Linux',
  'SUSE Linux',
])

/**
 * Compute and EC2 Instance plans in USD: the kinds that apply to EC2 usage. SageMaker and Database plans
 * do not; a plan in another currency cannot be weighed against the USD prices spotswap reads.
 */
const toActivePlan = (plan: SdkSavingsPlan): ActiveSavingsPlan | undefined => {
  const kind =
    plan.savingsPlanType === 'Compute'
      ? 'compute'
      : plan.savingsPlanType === 'EC2Instance'
        ? 'ec2-instance'
        : undefined
  const commitment = Number(plan.commitment)
  if (kind === undefined || plan.savingsPlanId === undefined || plan.currency !== 'USD') return undefined
  if (!Number.isFinite(commitment) || commitment <= 0) return undefined
  return {
    id: plan.savingsPlanId,
    kind,
    family: kind === 'ec2-instance' ? plan.ec2InstanceFamily : undefined,
    region: kind === 'ec2-instance' ? plan.region : undefined,
    hourlyCommitmentUsd: commitment,
  }
}

const readActivePlans = (ctx: AwsContext, api: SavingsPlansApi): Promise<ActiveSavingsPlan[]> =>
  ctx.caches.savingsPlans.get('global', ctx.now(), async () => {
    const plans = await collectPages(async (nextToken) => {
      const page = await ctx.call('savingsplans:DescribeSavingsPlans', () =>
        api.describeSavingsPlans({ states: ['active'], nextToken }),
      )
      return { items: page.savingsPlans ?? [], nextToken: page.nextToken }
    })
    return plans.flatMap((plan) => toActivePlan(plan) ?? [])
  })

const property = (rate: SdkSavingsPlanRate, name: string): string | undefined =>
  rate.properties?.find((p) => p.name === name)?.value

/** `shared` is the API's name for default tenancy; a Dedicated Host's usage is not an instance's. */
const tenancyOf = (raw: string | undefined): Tenancy | undefined =>
  raw === 'shared' || raw === 'default' ? 'default' : raw === 'dedicated' ? 'dedicated' : undefined

/** One rate as the billing module keys it; undefined for a rate that is not an EC2 instance-hour. */
const toRate = (rate: SdkSavingsPlanRate): readonly [string, number] | undefined => {
  const type = property(rate, 'instanceType')
  const region = property(rate, 'region')
  const platform = property(rate, 'productDescription')
  const tenancy = tenancyOf(property(rate, 'tenancy'))
  const usd = Number(rate.rate)
  if (rate.productType !== 'EC2' || rate.unit !== 'Hrs' || rate.currency !== 'USD') return undefined
  if (type === undefined || region === undefined || tenancy === undefined || !Number.isFinite(usd))
    return undefined
  if (platform === undefined || !PLATFORMS.has(platform)) return undefined
  return [rateKey(type, region, platform, tenancy), usd]
}

/**
 * A plan's EC2 rates in the region for the types asked
 * (https://docs.aws.amazon.com/savingsplans/latest/APIReference/API_DescribeSavingsPlanRates.html).
 */
const readRates = (
  ctx: AwsContext,
  api: SavingsPlansApi,
  plan: ActiveSavingsPlan,
  types: readonly string[],
): Promise<ReadonlyMap<string, number>> =>
  ctx.caches.savingsPlanRates.get(`${plan.id}|${ctx.region}|${types.join(',')}`, ctx.now(), async () => {
    const rates = await collectPages(async (nextToken) => {
      const page = await ctx.call('savingsplans:DescribeSavingsPlanRates', () =>
        api.describeSavingsPlanRates({
          savingsPlanId: plan.id,
          filters: [
            { name: 'region', values: [ctx.region] },
            { name: 'productType', values: ['EC2'] },
            { name: 'instanceType', values: [...types] },
          ],
          maxResults: RATES_PAGE_SIZE,
          nextToken,
        }),
      )
      return { items: page.searchResults ?? [], nextToken: page.nextToken }
    })
    const byKey = new Map<string, number>()
    for (const rate of rates) {
      const entry = toRate(rate)
      if (entry !== undefined && !byKey.has(entry[0])) byKey.set(entry[0], entry[1])
    }
    return byKey
  })

/** Whether a plan can apply to usage in the region: a Compute plan anywhere, an EC2 Instance plan in its own. */
const appliesIn = (plan: ActiveSavingsPlan, region: string): boolean =>
  plan.kind === 'compute' || plan.region === region

/**
 * The active plans that can apply in the region, no rates yet; none without a client. A Compute plan
 * carries its whole hourly commitment in every region: a region run cannot see the plan's use in other
 * regions, by Fargate or by Lambda, and assumes it may use all of it (docs/commitments.md says which way
 * that errs).
 */
export const activePlansIn = async (ctx: AwsContext): Promise<readonly ActiveSavingsPlan[]> => {
  const api = ctx.savingsPlans
  if (api === undefined) return []
  return (await readActivePlans(ctx, api)).filter((plan) => appliesIn(plan, ctx.region))
}

/** The plans with their rates for `instanceTypes` (the types the region runs on demand). */
export const withRates = async (
  ctx: AwsContext,
  plans: readonly ActiveSavingsPlan[],
  instanceTypes: readonly string[],
): Promise<SavingsPlan[]> => {
  const api = ctx.savingsPlans
  const types = [...new Set(instanceTypes)].sort()
  if (api === undefined || types.length === 0) return []
  const read: SavingsPlan[] = []
  for (const plan of plans) read.push({ ...plan, rates: await readRates(ctx, api, plan, types) })
  return read
}
