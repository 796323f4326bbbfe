import { describe, expect, it } from 'vitest'
import { errorCode, isNotFound } from '../../lambdas/aws/errors.ts'
import { simClients } from '../../tools/sim/sdk/clients.ts'
import { group, rawScenario, testWorld } from './support.ts'

const counts = (sim: ReturnType<typeof testWorld>) => Object.fromEntries(sim.world.counter.total)

/** The simulated SDK clients of a fresh replacer invocation, next to the adapter's port of another. */
const clientsOf = (sim: ReturnType<typeof testWorld>) => {
  const { session } = sim.cloud()
  return simClients(sim.world, session.region, session)
}

describe('the simulated SDK clients refuse what AWS refuses', () => {
  it.each([
    [
      'DescribeInstances with MaxResults over 1000',
      (c: ReturnType<typeof clientsOf>) => c.ec2.describeInstances({ MaxResults: 1001 }),
      'InvalidParameterValue',
    ],
    [
      'DescribeInstances with 201 values in one filter',
      (c: ReturnType<typeof clientsOf>) =>
        c.ec2.describeInstances({
          Filters: [{ Name: 'instance-id', Values: Array.from({ length: 201 }, (_, i) => `i-${i}`) }],
        }),
      'InvalidParameterValue',
    ],
    [
      'DescribeInstances with a filter it does not know',
      (c: ReturnType<typeof clientsOf>) =>
        c.ec2.describeInstances({ Filters: [{ Name: 'vpc-id', Values: ['vpc-1'] }] }),
      'InvalidParameterValue',
    ],
    [
      'DescribeAutoScalingGroups with MaxRecords over 100',
      (c: ReturnType<typeof clientsOf>) => c.autoScaling.describeAutoScalingGroups({ MaxRecords: 101 }),
      'ValidationError',
    ],
    [
      'DescribeAutoScalingGroups naming 51 groups with MaxRecords at its default',
      (c: ReturnType<typeof clientsOf>) =>
        c.autoScaling.describeAutoScalingGroups({
          AutoScalingGroupNames: Array.from({ length: 51 }, (_, i) => `g-${i}`),
        }),
      'ValidationError',
    ],
    [
      'DescribeAutoScalingInstances for 51 instances',
      (c: ReturnType<typeof clientsOf>) =>
        c.autoScaling.describeAutoScalingInstances({
          InstanceIds: Array.from({ length: 51 }, (_, i) => `i-${i}`),
        }),
      'ValidationError',
    ],
    [
      'AttachInstances of 21 instances',
      (c: ReturnType<typeof clientsOf>) =>
        c.autoScaling.attachInstances({
          AutoScalingGroupName: 'web',
          InstanceIds: Array.from({ length: 21 }, (_, i) => `i-${i}`),
        }),
      'ValidationError',
    ],
    [
      'DescribeInstanceTypes with MaxResults over 100',
      (c: ReturnType<typeof clientsOf>) => c.ec2.describeInstanceTypes({ MaxResults: 101 }),
      'InvalidParameterValue',
    ],
    [
      'a NextToken it never issued',
      (c: ReturnType<typeof clientsOf>) => c.ec2.describeSpotPriceHistory({ NextToken: '99.1000' }),
      'InvalidParameterValue',
    ],
  ])('refuses %s as the service does, and counts the request', async (_, send, code) => {
    const sim = testWorld(rawScenario([group('web')]))
    const error = await send(clientsOf(sim)).then(
      () => undefined,
      (refused: unknown) => refused,
    )
    expect(errorCode(error)).toBe(code)
    expect(error).toMatchObject({ $metadata: { httpStatusCode: 400 } })
    expect([...sim.world.counter.total.values()]).toEqual([1])
  })

  it('answers for the groups named, up to MaxRecords names, the tag filter applied too', async () => {
    const sim = testWorld(
      rawScenario([group('web'), group('api'), group('batch', { tags: { 'spot-enabled': 'false' } })]),
    )
    const autoScaling = clientsOf(sim).autoScaling
    const names = [...Array.from({ length: 97 }, (_, i) => `absent-${i}`), 'web', 'batch', 'api']
    const answer = await autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: names,
      MaxRecords: 100,
      Filters: [{ Name: 'tag:spot-enabled', Values: ['true'] }],
    })
    expect(answer.AutoScalingGroups?.map((g) => g.AutoScalingGroupName).sort()).toEqual(['api', 'web'])
  })

  it('pages a listing by the size asked and ends it without a token', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 12, max: 12 })]))
    const ec2 = clientsOf(sim).ec2
    const first = await ec2.describeInstances({ MaxResults: 5 })
    const second = await ec2.describeInstances({ MaxResults: 5, NextToken: first.NextToken })
    const last = await ec2.describeInstances({ MaxResults: 5, NextToken: second.NextToken })
    const ids = [first, second, last].flatMap((page) =>
      (page.Reservations ?? []).flatMap((r) => (r.Instances ?? []).map((i) => i.InstanceId)),
    )
    expect(ids).toHaveLength(12)
    expect(new Set(ids).size).toBe(12)
    expect(last.NextToken).toBeUndefined()
  })
})

describe('the real adapter over the simulated SDK clients', () => {
  it('follows DescribeSpotPriceHistory across its pages of 1000 rows', async () => {
    const zones = ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1d', 'us-east-1f']
    const sim = testWorld(rawScenario([group('web')], {}, { zones }))
    const rows = await sim.cloud().describeSpotPrices('Linux/UNIX', sim.world.clock.nowDate())
    const expected = sim.region.market.priceRows('Linux/UNIX', sim.world.clock.now)
    expect(expected.length).toBeGreaterThan(1000)
    expect(rows).toEqual(expected)
    expect(counts(sim)).toEqual({ 'ec2:DescribeSpotPriceHistory': Math.ceil(expected.length / 1000) })
  })

  it('reads back the catalogue the simulator holds, type for type', async () => {
    const sim = testWorld(rawScenario([group('web')]))
    const catalog = await sim.cloud().describeInstanceTypes()
    expect(catalog).toEqual(sim.world.catalog)
  })

  it('reads on-demand prices through GetProducts, equal to the embedded table', async () => {
    const sim = testWorld(rawScenario([group('web')]))
    const prices = await sim.cloud().onDemandPrices('Linux/UNIX')
    expect(prices.source).toBe('pricing-api')
    expect(prices.prices).toEqual(new Map(sim.region.market.onDemandPrices('Linux/UNIX')))
    expect(counts(sim)['pricing:GetProducts']).toBe(Math.ceil(prices.prices.size / 100))
  })
})

describe('not-found, as the simulated services answer it and the adapter classifies it', () => {
  it('rejects TerminateInstanceInAutoScalingGroup of an instance in no group with an error isNotFound reads', async () => {
    const sim = testWorld(rawScenario([group('web')]))
    const cloud = sim.cloud()
    const error = await cloud.terminateInGroup('i-00000000000000bad', false).then(
      () => undefined,
      (refused: unknown) => refused,
    )
    expect(errorCode(error)).toBe('ValidationError')
    expect(isNotFound(error)).toBe(true)
    expect(cloud.session.failedCalls).toBe(1)
  })

  it('untags every instance still there, then re-throws the first not-found (the adapter, not a copy of it)', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2 })]))
    const [a, b] = sim.members('web')
    if (a === undefined || b === undefined) throw new Error('two members expected')
    a.tags = { ...a.tags, mark: 'x' }
    b.tags = { ...b.tags, mark: 'x' }
    const missing = 'i-00000000000000bad'
    const error = await sim
      .cloud()
      .untagInstances([a.id, missing, b.id], ['mark'])
      .then(
        () => undefined,
        (refused: unknown) => refused,
      )
    expect(errorCode(error)).toBe('InvalidInstanceID.NotFound')
    expect(a.tags.mark).toBeUndefined()
    expect(b.tags.mark).toBeUndefined()
    // The batch, then each id alone.
    expect(counts(sim)).toEqual({ 'ec2:DeleteTags': 4 })
  })

  it('answers reads about things that may be gone without failing the invocation', async () => {
    const sim = testWorld(rawScenario([group('web')]))
    const cloud = sim.cloud()
    expect(await cloud.terminationProtected(['i-00000000000000bad'])).toEqual(new Set())
    expect(await cloud.stackStatuses(['web-stack'])).toEqual(new Map())
    expect(cloud.session.failedCalls).toBe(0)
    expect(counts(sim)).toEqual({ 'ec2:DescribeInstanceAttribute': 1, 'cloudformation:DescribeStacks': 1 })
  })
})
