/**
 * The Savings Plans API, answered from the scenario's plans: DescribeSavingsPlans and
 * DescribeSavingsPlanRates. The endpoint is global, so every region's plans are listed, whichever region's
 * clients ask; a plan's state follows the clock (queued before its start, retired after its end).
 */
import type {
  DescribeSavingsPlanRatesCommandInput,
  DescribeSavingsPlansCommandInput,
  SavingsPlanState,
  SavingsPlan as SdkSavingsPlan,
  SavingsPlanRate as SdkSavingsPlanRate,
} from '@aws-sdk/client-savingsplans'
import type { SavingsPlansApi } from '../../../lambdas/aws/cloud.ts'
import { familyOf } from '../../../lambdas/core/commitments/normalization.ts'
import { rateKey, type SavingsPlan } from '../../../lambdas/core/commitments/types.ts'
import { LINUX } from '../../../lambdas/core/platform.ts'
import type { InEffect } from '../scenario/types.ts'
import type { World } from '../world.ts'
import type { PageRule } from './paging.ts'
import { answer, type SimApiContext } from './request.ts'

type ScenarioPlan = SavingsPlan & InEffect

// maxResults up to 1,000 for both
// (https://docs.aws.amazon.com/savingsplans/latest/APIReference/API_DescribeSavingsPlanRates.html).
const rule = (operation: string): PageRule => ({
  operation,
  defaultSize: undefined,
  min: 1,
  max: 1000,
  invalidCode: 'ValidationException',
})
const PLANS = rule('DescribeSavingsPlans')
const RATES = rule('DescribeSavingsPlanRates')

const stateAt = (at: number, plan: InEffect): SavingsPlanState =>
  at < plan.startMs ? 'queued' : at < plan.endMs ? 'active' : 'retired'

const everyPlan = (world: World): ScenarioPlan[] =>
  [...world.regions.values()].flatMap((region) => [...(region.commitments?.savingsPlans ?? [])])

const toSdkPlan = (plan: ScenarioPlan, state: SavingsPlanState): SdkSavingsPlan => ({
  savingsPlanId: plan.id,
  savingsPlanType: plan.kind === 'compute' ? 'Compute' : 'EC2Instance',
  state,
  currency: 'USD',
  commitment: String(plan.hourlyCommitmentUsd),
  ...(plan.kind === 'ec2-instance' ? { region: plan.region, ec2InstanceFamily: plan.family } : {}),
})

const filterValues = (input: DescribeSavingsPlanRatesCommandInput, name: string): string[] | undefined =>
  input.filters?.find((f) => f.name === name)?.values

/** The plan's rate for a Linux/UNIX shared-tenancy hour of `type` in `region`; undefined where it does not apply. */
const rateOf = (world: World, plan: ScenarioPlan, type: string, region: string): number | undefined => {
  if (plan.kind === 'ec2-instance' && (plan.region !== region || familyOf(type) !== plan.family))
    return undefined
  const declared = plan.rates.get(rateKey(type, region, LINUX, 'default'))
  if (declared !== undefined) return declared
  const onDemand = world.regions.get(region)?.market.onDemandPrice(type, LINUX)
  return onDemand === undefined || plan.discount === undefined ? undefined : onDemand * (1 - plan.discount)
}

const ratesOf = (
  world: World,
  plan: ScenarioPlan,
  input: DescribeSavingsPlanRatesCommandInput,
): SdkSavingsPlanRate[] => {
  const regions = filterValues(input, 'region') ?? [...world.regions.keys()]
  const types = filterValues(input, 'instanceType') ?? [...world.catalog.keys()]
  const products = filterValues(input, 'productType')
  if (products !== undefined && !products.includes('EC2')) return []
  return regions.flatMap((region) =>
    types.flatMap((type): SdkSavingsPlanRate[] => {
      const usd = rateOf(world, plan, type, region)
      if (usd === undefined) return []
      return [
        {
          rate: String(usd),
          currency: 'USD',
          unit: 'Hrs',
          productType: 'EC2',
          serviceCode: 'AmazonEC2',
          usageType: `BoxUsage:${type}`,
          operation: 'RunInstances',
          properties: [
            { name: 'region', value: region },
            { name: 'instanceType', value: type },
            { name: 'productDescription', value: LINUX },
            { name: 'tenancy', value: 'shared' },
          ],
        },
      ]
    }),
  )
}

const describeSavingsPlans = (ctx: SimApiContext, input: DescribeSavingsPlansCommandInput) =>
  answer(ctx, 'savingsplans:DescribeSavingsPlans', () => {
    const at = ctx.world.clock.now
    const wanted = input.states === undefined ? undefined : new Set<string>(input.states)
    const page = ctx.listings.page(PLANS, { maxResults: input.maxResults, nextToken: input.nextToken }, () =>
      everyPlan(ctx.world).flatMap((plan) => {
        const state = stateAt(at, plan)
        return wanted === undefined || wanted.has(state) ? [toSdkPlan(plan, state)] : []
      }),
    )
    return { savingsPlans: page.items, nextToken: page.nextToken, $metadata: {} }
  })

const describeSavingsPlanRates = (ctx: SimApiContext, input: DescribeSavingsPlanRatesCommandInput) =>
  answer(ctx, 'savingsplans:DescribeSavingsPlanRates', () => {
    const plan = everyPlan(ctx.world).find((p) => p.id === input.savingsPlanId)
    const page = ctx.listings.page(RATES, { maxResults: input.maxResults, nextToken: input.nextToken }, () =>
      plan === undefined ? [] : ratesOf(ctx.world, plan, input),
    )
    return {
      savingsPlanId: input.savingsPlanId,
      searchResults: page.items,
      nextToken: page.nextToken,
      $metadata: {},
    }
  })

/** The client, in a world whose scenario declares commitments somewhere; undefined otherwise (none read). */
export const savingsPlansReads = (ctx: SimApiContext): SavingsPlansApi | undefined =>
  [...ctx.world.regions.values()].some((region) => region.commitments !== undefined)
    ? {
        describeSavingsPlans: (input) => describeSavingsPlans(ctx, input),
        describeSavingsPlanRates: (input) => describeSavingsPlanRates(ctx, input),
      }
    : undefined
