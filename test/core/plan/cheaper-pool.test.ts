/**
 * Moving spot members to a markedly cheaper pool (CHEAPER_POOL_MIN_SAVING_PERCENTAGE): after an
 * interruption a member lands wherever capacity was, and nothing else would bring it back once the
 * cheap pools return.
 */
import { describe, expect, it } from 'vitest'
import {
  TAG_LAUNCH_TEMPLATE_ID,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_NO_SPOT_CAPACITY_UNTIL,
  TAG_REPLACED_TYPE,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
} from '../../../lambdas/core/constants.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import { type Instance, spotPriceBook } from '../../../lambdas/core/types.ts'
import { launches, swaps } from '../../builders/actions.ts'
import {
  anInstance,
  config,
  GROUP_TEMPLATE_ID,
  minutesAgo,
  onDemandFleet,
  planInput,
} from '../../builders/world.ts'

/** us-east-1a: m5a.large 40% below m5.large, m5n.large 4% below; m5.large on-demand is $0.096. */
const POOLS = new Map([
  ['m5.large/us-east-1a', 0.05],
  ['m5a.large/us-east-1a', 0.03],
  ['m5n.large/us-east-1a', 0.048],
])

const spotMember = (type: string, overrides: Partial<Instance> = {}): Instance =>
  anInstance({
    lifecycle: 'spot',
    type,
    zone: 'us-east-1a',
    launchTime: minutesAgo(120),
    tags: { [TAG_REPLACED_TYPE]: 'm5.large', team: 'web' },
    ...overrides,
  })

const plan = (members: readonly Instance[], overrides: Parameters<typeof planInput>[1] = {}) =>
  planGroup(
    planInput(members, {
      spotPrices: spotPriceBook(POOLS),
      config: config({ maxReplacementsInFlight: { kind: 'count', value: 10 } }),
      ...overrides,
    }),
  )

describe('moving spot members to a cheaper pool', () => {
  it('launches a replacement offering only pools at least 10% cheaper than the member’s own', () => {
    const member = spotMember('m5.large')
    const [launch] = launches(plan([member]).actions)
    expect(launch).toMatchObject({
      replacing: member.id,
      overrides: [expect.objectContaining({ instanceType: 'm5a.large', zone: 'us-east-1a' })],
      expectedHourlySavingsUsd: 0.05 - 0.03,
      reason: 'spot m5.large at $0.05; m5a.large at $0.03 is at least 10% cheaper',
    })
    expect(launch?.overrides).toHaveLength(1)
    expect(launch?.tags[TAG_REPLACED_TYPE]).toBe('m5.large')
  })

  it.each([
    ['it already sits in the cheapest pool', spotMember('m5a.large'), {}],
    [
      'no pool is 10% cheaper',
      spotMember('m5n.large', { type: 'm5n.large' }),
      { spotPrices: spotPriceBook([...POOLS, ['m5a.large/us-east-1a', 0.046]]) },
    ],
    ['the setting is 0', spotMember('m5.large'), { config: config({ cheaperPoolMinSavingPercentage: 0 }) }],
    ['it has run for less than an hour', spotMember('m5.large', { launchTime: minutesAgo(30) }), {}],
    [
      'its last move found no capacity and is backing off',
      spotMember('m5.large', { tags: { [TAG_NO_SPOT_CAPACITY_UNTIL]: minutesAgo(-10).toISOString() } }),
      {},
    ],
  ] as const)('leaves a member where it is when %s', (_, member, overrides) => {
    expect(launches(plan([member], overrides).actions)).toEqual([])
  })

  it('moves nobody into a pool that already holds its share of the group', () => {
    // Three spot members: a pool may hold one; m5a.large/us-east-1a already does.
    const members = [spotMember('m5a.large'), spotMember('m5.large'), spotMember('m5.large')]
    expect(launches(plan(members).actions)).toEqual([])
  })

  it('moves nobody while on-demand members above the minimum are still to be replaced', () => {
    const [onDemand] = onDemandFleet(1) as [Instance]
    const member = spotMember('m5.large')
    expect(launches(plan([onDemand, member]).actions).map((l) => l.replacing)).toEqual([onDemand.id])
  })

  it('moves beside on-demand members the minimum keeps', () => {
    const [onDemand] = onDemandFleet(1) as [Instance]
    const member = spotMember('m5.large')
    const keepOne = config({ minOnDemandNumber: 1, maxReplacementsInFlight: { kind: 'count', value: 10 } })
    expect(launches(plan([onDemand, member], { config: keepOne }).actions).map((l) => l.replacing)).toEqual([
      member.id,
    ])
  })

  it('moves one member per run, so a fleet is re-placed gradually', () => {
    const members = Array.from({ length: 6 }, () => spotMember('m5.large'))
    const prices = spotPriceBook([
      ...POOLS,
      ['m5ad.large/us-east-1a', 0.031],
      ['m6a.large/us-east-1a', 0.032],
    ])
    expect(launches(plan(members, { spotPrices: prices }).actions)).toHaveLength(1)
  })

  it('swaps the ready replacement in and retires the member it moves', () => {
    const member = spotMember('m5.large', {
      tags: {
        [TAG_REPLACED_TYPE]: 'm5.large',
        [TAG_REPLACEMENT_ATTEMPT]: `1:i-00000000000000abc@${minutesAgo(6).toISOString()}`,
      },
    })
    const replacement = anInstance({
      id: 'i-00000000000000abc',
      lifecycle: 'spot',
      type: 'm5a.large',
      zone: 'us-east-1a',
      launchTime: minutesAgo(6),
      tags: {
        [TAG_LAUNCH_TEMPLATE_ID]: GROUP_TEMPLATE_ID,
        [TAG_LAUNCHED_FOR_GROUP]: 'web',
        [TAG_REPLACING_INSTANCE]: member.id,
      },
    })
    const result = plan([member], { launched: [replacement] })
    expect(swaps(result.actions)[0]?.pairs).toEqual([
      { spotInstanceId: replacement.id, onDemandInstanceId: member.id },
    ])
  })
})
