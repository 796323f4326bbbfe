import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { InFlightLimit } from '../../../lambdas/core/config/config.ts'
import {
  inFlightLimit,
  judgedBeyondInService,
  minOnDemandCount,
} from '../../../lambdas/core/plan/group-sizes.ts'
import { type MixedInstancesPolicy, NO_TRAFFIC_SOURCES } from '../../../lambdas/core/types.ts'

const minimum = (minOnDemandNumber: number, minOnDemandPercentage: number) => ({
  minOnDemandNumber,
  minOnDemandPercentage,
})

const policy = (
  onDemandBaseCapacity: number,
  onDemandPercentageAboveBaseCapacity: number,
): MixedInstancesPolicy => ({
  launchTemplate: { id: 'lt-1', name: undefined, version: '$Latest' },
  overrideTypes: ['m5.large', 'm5a.large'],
  overrides: [
    { instanceType: 'm5.large', launchTemplate: undefined, weightedCapacity: 1 },
    { instanceType: 'm5a.large', launchTemplate: undefined, weightedCapacity: 1 },
  ],
  onDemandBaseCapacity,
  onDemandPercentageAboveBaseCapacity,
})

describe('minOnDemandCount', () => {
  it.each([
    // number, percentage, instances, expected, why
    [0, 0, 10, 0, 'nothing required by default'],
    [2, 0, 10, 2, 'a plain number'],
    [0, 30, 10, 3, 'a plain percentage'],
    [0, 25, 10, 3, '2.5 rounds half up to 3'],
    [0, 15, 10, 2, '1.5 rounds half up to 2'],
    [0, 50, 1, 1, '0.5 rounds half up to 1'],
    [0, 24, 10, 2, '2.4 rounds down to 2'],
    [0, 33.3, 3, 1, '0.999 rounds to 1'],
    [0, 10, 3, 0, '0.3 rounds down to 0'],
    [4, 30, 10, 4, 'the number wins when it is larger'],
    [2, 50, 10, 5, 'the percentage wins when it is larger'],
    [3, 30, 10, 3, 'equal requirements'],
    [5, 0, 3, 3, 'a number above the group size is capped at the group size'],
    [0, 100, 7, 7, '100% keeps every instance on-demand'],
    [2, 0, 0, 0, 'an empty group needs nothing'],
  ])('number %i, percentage %d of %i instances → %i (%s)', (number, percentage, instances, expected) => {
    expect(minOnDemandCount(minimum(number, percentage), instances, undefined)).toBe(expected)
  })

  it.each([
    // base, % above base, instances, expected, why
    [1, 50, 4, 3, 'base 1 + 50% of the 3 above base (1.5) rounded up to 2'],
    [0, 0, 4, 0, 'a fully spot policy'],
    [2, 0, 4, 2, 'only the base'],
    [0, 100, 4, 4, 'AWS default: everything above base on-demand'],
    [0, 25, 10, 3, '2.5 above base rounds up to 3'],
    [0, 20, 10, 2, 'an exact 2 stays 2 (no float drift upwards)'],
    [0, 10, 3, 1, '0.3 above base rounds up to 1'],
    [5, 50, 3, 3, 'a base above the group size is capped at the group size'],
    [3, 50, 3, 3, 'a base equal to the group size leaves nothing above it'],
  ])(
    'MixedInstancesPolicy base %i, %i%% above base, %i instances → %i (%s)',
    (base, above, instances, expected) => {
      expect(minOnDemandCount(minimum(0, 0), instances, policy(base, above))).toBe(expected)
    },
  )

  it('uses the largest of the number, the percentage and the MixedInstancesPolicy', () => {
    expect(minOnDemandCount(minimum(3, 0), 10, policy(1, 0))).toBe(3)
    expect(minOnDemandCount(minimum(0, 40), 10, policy(1, 0))).toBe(4)
    expect(minOnDemandCount(minimum(1, 10), 10, policy(2, 50))).toBe(6)
  })

  it('never exceeds the group size and never goes below any single requirement', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 100 }),
        (instances, number, percentage, base, above) => {
          const count = minOnDemandCount(minimum(number, percentage), instances, policy(base, above))
          expect(count).toBeLessThanOrEqual(instances)
          expect(count).toBeGreaterThanOrEqual(Math.min(instances, number, base))
          expect(Number.isInteger(count)).toBe(true)
        },
      ),
    )
  })
})

describe('inFlightLimit', () => {
  it.each<[InFlightLimit, number, number, string]>([
    [{ kind: 'count', value: 3 }, 10, 3, 'a count is used as given'],
    [{ kind: 'count', value: 3 }, 1, 3, 'a count larger than the group is harmless'],
    [{ kind: 'percent', value: 25 }, 20, 5, '25% of 20'],
    [{ kind: 'percent', value: 25 }, 3, 1, '25% of 3 (0.75) rounds up to 1'],
    [{ kind: 'percent', value: 25 }, 10, 3, '25% of 10 (2.5) rounds up to 3'],
    [{ kind: 'percent', value: 10 }, 30, 3, 'an exact 3 stays 3 (no float drift upwards)'],
    [{ kind: 'percent', value: 1 }, 5, 1, 'a tiny percentage is still at least 1'],
    [{ kind: 'percent', value: 50 }, 0, 1, 'an empty group is still at least 1'],
    [{ kind: 'percent', value: 100 }, 7, 7, '100% is the whole group'],
  ])('%j of %i instances → %i (%s)', (limit, instances, expected) => {
    // A set count or percentage applies whatever checks the group.
    expect(inFlightLimit(limit as InFlightLimit, instances, true)).toBe(expected)
    expect(inFlightLimit(limit as InFlightLimit, instances, false)).toBe(expected)
  })

  it.each([
    [20, true, 5, 'a quarter of a group judged beyond InService'],
    [3, true, 1, 'at least 1 of a judged group'],
    [6, false, 6, 'the whole group otherwise'],
    [0, false, 1, 'at least 1 in an empty group'],
  ])('auto, %i instances, judged beyond InService %s → %i (%s)', (instances, judged, expected) => {
    expect(inFlightLimit({ kind: 'auto' }, instances, judged)).toBe(expected)
  })
})

describe('judgedBeyondInService', () => {
  const tg = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/0123456789abcdef'
  it.each([
    ['no load balancer, no ECS', NO_TRAFFIC_SOURCES, {}, false],
    ['a target group', { ...NO_TRAFFIC_SOURCES, targetGroupArns: [tg] }, {}, true],
    ['a classic load balancer', { ...NO_TRAFFIC_SOURCES, classicLoadBalancerNames: ['web'] }, {}, true],
    [
      'a traffic source it cannot read',
      { ...NO_TRAFFIC_SOURCES, unreadable: ['vpc-lattice:tg-1'] },
      {},
      true,
    ],
    ["ECS's tag (a capacity provider's group)", NO_TRAFFIC_SOURCES, { AmazonECSManaged: '' }, true],
    ['an unrelated tag', NO_TRAFFIC_SOURCES, { team: 'web' }, false],
  ])('%s → %s', (_, sources, tags, expected) => {
    expect(judgedBeyondInService(sources, tags)).toBe(expected)
  })
})
