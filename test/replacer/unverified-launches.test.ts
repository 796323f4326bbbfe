import { describe, expect, it } from 'vitest'
import { TAG_LAUNCH_TEMPLATE_ID, TAG_REPLACEMENT_ATTEMPT } from '../../lambdas/core/constants.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import type { SpotLaunchRequest } from '../../lambdas/core/port.ts'
import { awsError } from '../fakes/fake-cloud.ts'
import { actionsOf, cloudWithFleet, harness } from './support.ts'

/** Spot instances outside the group, alive, that carry no EC2 launch-template tag. */
const unverifiable = (cloud: ReturnType<typeof cloudWithFleet>) =>
  [...cloud.instances.values()].filter(
    (i) =>
      i.lifecycle === 'spot' &&
      (i.state === 'pending' || i.state === 'running') &&
      !cloud.group('web').members.has(i.id) &&
      i.tags[TAG_LAUNCH_TEMPLATE_ID] === undefined,
  )

describe('replacer: an EC2 that writes no launch-template tag (as moto’s CreateFleet)', () => {
  it.each<[string | undefined, number, string]>([
    ['25%', 2, 'a quarter of 8: two at a time'],
    [undefined, 8, 'the default of a group without load balancers: the whole group'],
  ])(
    'keeps the launches it cannot verify within an in-flight budget of %s over 8 runs: %i (%s), and reports them',
    async (budget, bound) => {
      const cloud = cloudWithFleet(8, { maxSize: 8 })
      cloud.omitLaunchTemplateTag = true
      const h = harness(
        { 'us-east-1': cloud },
        budget === undefined ? {} : { MAX_REPLACEMENTS_IN_FLIGHT: budget },
      )
      let summary = await h.run()
      for (let run = 1; run < 8; run++) {
        h.advanceMinutes(5)
        summary = await h.run()
      }
      // Never more than the budget, never attached, never terminated.
      expect(unverifiable(cloud)).toHaveLength(bound)
      expect(cloud.calls.filter((c) => c.method === 'launchSpot')).toHaveLength(bound)
      expect(cloud.calls.some((c) => c.method === 'terminateInstances')).toBe(false)
      const group = summary.regions[0]?.groups?.[0] as Record<string, unknown>
      expect(group.unverifiedLaunches).toEqual(
        unverifiable(cloud)
          .map((i) => i.id)
          .sort(),
      )
      expect(group.stillOnDemandByReason).toEqual({
        'unverified-launch': bound,
        ...(bound < 8 ? { 'in-flight-budget': 8 - bound } : {}),
      })
      const last = h.recorded.metrics.filter((m) => m.dimensions.Group === 'web').flatMap((m) => m.values)
      expect(last).toContainEqual({ name: Metric.UnverifiedLaunches, unit: 'Count', value: bound })
      expect(
        h.recorded.logs.some((l) => l.level === 'error' && l.message.startsWith('launch spotswap made')),
      ).toBe(true)
    },
  )
})

describe('replacer: a client token EC2 refuses as used with other parameters', () => {
  it('moves on to the next attempt, keeping the first attempt’s start, and launches with a new token', async () => {
    const cloud = cloudWithFleet(3)
    const partner = [...cloud.group('web').members.keys()][0] as string
    const since = '2025-12-31T23:50:00.000Z'
    // An earlier run made attempt 1 and died before EC2's answer was recorded; EC2 took that request
    // with other overrides, and launched nothing that is visible.
    cloud.seedInstanceTags(partner, { [TAG_REPLACEMENT_ATTEMPT]: `1@${since}` })
    cloud.fleetTokens.set(`spotswap-${partner}-a1`, {
      request: '{"other":"parameters"}',
      result: { ok: false, errors: [] },
    })
    const h = harness({ 'us-east-1': cloud })
    const first = await h.run()
    expect(actionsOf(first)).toContainEqual(
      expect.objectContaining({ kind: 'launch-spot', status: 'failed' }),
    )
    expect(cloud.instances.get(partner)?.tags[TAG_REPLACEMENT_ATTEMPT]).toBe(`2@${since}`)
    h.advanceMinutes(5)
    await h.run()
    const tokens = cloud.calls
      .filter((c) => c.method === 'launchSpot')
      .map((c) => (c.args[0] as { clientToken: string }).clientToken)
    expect(tokens.filter((t) => t.startsWith(`spotswap-${partner}-`))).toEqual([
      `spotswap-${partner}-a1`,
      `spotswap-${partner}-a2`,
    ])
    expect(cloud.instances.get(partner)?.tags[TAG_REPLACEMENT_ATTEMPT]).toMatch(
      /^2:i-[0-9a-f]+@2025-12-31T23:50/,
    )
  })

  it('is what FakeCloud answers for a token used again with other parameters, and the first answer otherwise', async () => {
    const cloud = cloudWithFleet(1)
    const request: SpotLaunchRequest = {
      groupName: 'web',
      launchTemplate: { id: 'lt-0123', name: 'web', version: undefined },
      launchConfigurationName: undefined,
      overrides: [{ instanceType: 'm5.large', zone: 'us-east-1b', subnetId: undefined, priority: 0 }],
      allocationStrategy: 'price-capacity-optimized',
      tags: {},
      clientToken: 't-1',
    }
    const first = await cloud.launchSpot(request)
    expect(await cloud.launchSpot(request)).toEqual(first)
    await expect(
      cloud.launchSpot({
        ...request,
        overrides: [{ instanceType: 'm5a.large', zone: 'us-east-1b', subnetId: undefined, priority: 0 }],
      }),
    ).rejects.toMatchObject({ name: awsError('IdempotentParameterMismatch', 400).name })
  })
})
