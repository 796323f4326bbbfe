/**
 * A region-level read only some groups need (a platform's spot prices, the zones of a moved group's
 * subnets) that fails after the SDK's retries holds back only those groups: they start nothing and are
 * skipped with the read's reason, their open swap still finishes, and the region's other groups go on.
 */
import { describe, expect, it } from 'vitest'
import { TAG_LAUNCH_TEMPLATE_ID, TAG_REPLACEMENT_ATTEMPT, TAG_SWAP } from '../../lambdas/core/constants.ts'
import type { SpotLaunchRequest } from '../../lambdas/core/port.ts'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import { awsError, type FakeCloud, throttlingError } from '../fakes/fake-cloud.ts'
import { countedOnce, groupResult, launchesFor, membersOf, withOpenSwap } from './open-swap-support.ts'
import { cloudWithFleet, harness, START, spotShare, strayOf } from './support.ts'

/** `web` runs Windows (its own spot prices), `api` Linux: one DescribeSpotPriceHistory each. */
const onTwoPlatforms = (cloud: FakeCloud): void => {
  for (const id of membersOf(cloud, 'web')) {
    const instance = cloud.instances.get(id)
    if (instance !== undefined) instance.platform = 'Windows'
  }
  const linux = cloud.spotPrices.filter((p) => p.productDescription === 'Linux/UNIX')
  cloud.spotPrices = [...linux, ...linux.map((p) => ({ ...p, productDescription: 'Windows' }))]
}

/** `api`'s run: its open swap finished (partner gone, record dropped), nothing launched for it. */
const expectSwapFinishedAndNothingStarted = (
  cloud: FakeCloud,
  { partner, waiting, replacement }: { partner: string; waiting: string; replacement: string },
): void => {
  expect(launchesFor(cloud, 'api')).toEqual([])
  expect(membersOf(cloud, 'api')).toEqual([waiting, replacement])
  expect(membersOf(cloud, 'api')).not.toContain(partner)
  expect(cloud.group('api').tags[TAG_SWAP]).toBeUndefined()
}

const skipOf = (summary: ReplacerSummary, group: string) => {
  const result = groupResult(summary, group)
  return { skipCode: result?.skipCode, skipped: result?.skipped }
}

describe('a failed region-level read holds back only the groups that need it', () => {
  it.each([
    ['a server error', awsError('InternalError', 500, 'An internal error has occurred')],
    ['throttling', throttlingError()],
  ])(
    'one platform’s spot prices unreadable (%s): its group is skipped and finishes its swap; the other platform’s converges',
    async (_, error) => {
      const setup = await withOpenSwap()
      const { cloud, h } = setup
      onTwoPlatforms(cloud)
      const read = cloud.describeSpotPrices.bind(cloud)
      cloud.describeSpotPrices = async (description, now) => {
        if (description === 'Linux/UNIX') throw error
        return read(description, now)
      }
      const summary = await h.run()
      expect(summary.regions[0]?.error).toBeUndefined()
      expectSwapFinishedAndNothingStarted(cloud, setup)
      expect(skipOf(summary, 'api')).toEqual({
        skipCode: 'spot-prices-unreadable',
        skipped: expect.stringContaining(`Linux/UNIX: ${error.name}: `),
      })
      expect(launchesFor(cloud, 'web').length).toBeGreaterThan(0)
      expect(skipOf(summary, 'web').skipCode).toBeUndefined()
      expect(h.recorded.logs).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          message: 'spot prices unreadable: the group starts no replacement or swap this run',
          attributes: expect.objectContaining({ group: 'api', read: 'spot-prices', subject: 'Linux/UNIX' }),
        }),
      )
      expect(h.recorded.metrics).toContainEqual(countedOnce('api', 'SpotPricesUnreadable'))
      // No failed run, so no retry of it: the next scheduled run reads again.
      expect(h.recorded.logs.map((l) => l.message)).not.toContain('region run failed')

      for (let run = 0; run < 6 && spotShare(cloud, 'web').onDemand > 0; run++) {
        h.advanceMinutes(5)
        await h.run()
      }
      expect(spotShare(cloud, 'web')).toEqual({ spot: 2, onDemand: 0 })
      expect(launchesFor(cloud, 'api')).toEqual([])

      cloud.describeSpotPrices = read
      h.advanceMinutes(5)
      await h.run()
      expect(launchesFor(cloud, 'api')).toHaveLength(1)
    },
  )

  it('a moved group’s subnets unreadable: it is skipped and finishes its swap; the others go on', async () => {
    const setup = await withOpenSwap()
    const { cloud, h } = setup
    // The owner moved api to a new subnet: its members are outside it, the subnet's zone is to be read.
    cloud.group('api').subnetIds = ['subnet-new-d']
    cloud.subnets.set('subnet-new-d', 'us-east-1d')
    const read = cloud.subnetZones.bind(cloud)
    cloud.subnetZones = async () => {
      throw awsError('UnauthorizedOperation', 403, 'not authorized to perform ec2:DescribeSubnets')
    }
    const summary = await h.run()
    expect(summary.regions[0]?.error).toBeUndefined()
    expectSwapFinishedAndNothingStarted(cloud, setup)
    expect(skipOf(summary, 'api')).toEqual({
      skipCode: 'subnets-unreadable',
      skipped: expect.stringContaining('subnet-new-d: UnauthorizedOperation: '),
    })
    expect(launchesFor(cloud, 'web').length).toBeGreaterThan(0)
    expect(h.recorded.metrics).toContainEqual(countedOnce('api', 'SubnetsUnreadable'))

    cloud.subnetZones = read
    h.advanceMinutes(5)
    await h.run()
    const requests = launchesFor(cloud, 'api').map((c) => c.args[0] as SpotLaunchRequest)
    expect(requests).toHaveLength(1)
    expect(new Set(requests.flatMap((r) => r.overrides.map((o) => o.subnetId)))).toEqual(
      new Set(['subnet-new-d']),
    )
  })

  it('subnets read to move a replacement to another zone unreadable: that group is skipped; the others go on', async () => {
    // web's member in us-east-1c has no compatible pool there; its group's subnet-d is known only to DescribeSubnets.
    const cloud = cloudWithFleet(0, { subnetIds: ['subnet-b', 'subnet-c', 'subnet-d'] })
    cloud.spotPrices = cloud.spotPrices.filter((row) => row.zone !== 'us-east-1c')
    const launchTime = new Date(START.getTime() - 6e6)
    cloud.addInstance({
      group: 'web',
      zone: 'us-east-1b',
      subnetId: 'subnet-b',
      lifecycle: 'spot',
      launchTime,
    })
    cloud.addInstance({ group: 'web', zone: 'us-east-1c', subnetId: 'subnet-c', launchTime })
    cloud.group('web').maxSize = 3
    cloud.addGroup('api', { maxSize: 2 })
    cloud.addInstance({ group: 'api', zone: 'us-east-1d', launchTime })
    const asked: (readonly string[])[] = []
    cloud.subnetZones = async (ids) => {
      asked.push(ids)
      // EC2's throttling code (https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-throttling.html).
      throw awsError('RequestLimitExceeded', 503, 'Request limit exceeded.')
    }
    const h = harness({ 'us-east-1': cloud }, { MIN_ON_DEMAND_NUMBER: '0' })
    const summary = await h.run()
    expect(summary.regions[0]?.error).toBeUndefined()
    expect(asked).toEqual([['subnet-d']])
    expect(launchesFor(cloud, 'web')).toEqual([])
    expect(skipOf(summary, 'web')).toEqual({
      skipCode: 'subnets-unreadable',
      skipped: expect.stringContaining('subnet-d: RequestLimitExceeded: '),
    })
    expect(launchesFor(cloud, 'api')).toHaveLength(1)
    expect(h.recorded.metrics).toContainEqual(countedOnce('web', 'SubnetsUnreadable'))
  })

  it('the groups strays name unreadable: the strays wait for the next run; the groups go on', async () => {
    const cloud = cloudWithFleet(2)
    const stray = strayOf(cloud)
    const list = cloud.describeGroups.bind(cloud)
    // The second listing, by the filter tag's key alone, looks for groups opted out since.
    cloud.describeGroups = async (query) => {
      if (query.tagValues.length === 0) throw awsError('InternalFailure', 500, 'try again')
      return list(query)
    }
    const h = harness({ 'us-east-1': cloud })
    const summary = await h.run()
    expect(summary.regions[0]?.error).toBeUndefined()
    expect(launchesFor(cloud, 'web').length).toBeGreaterThan(0)
    expect(cloud.instances.get(stray.id)?.state).toBe('running')
    expect(h.recorded.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'strays unreadable: left for the next run',
        attributes: expect.objectContaining({ error: 'InternalFailure: try again' }),
      }),
    )

    cloud.describeGroups = list
    h.advanceMinutes(5)
    await h.run()
    expect(cloud.instances.get(stray.id)?.state).toBe('terminated')
  })

  it.each([
    ['by the cleanup only (the observe step read it)', (read: number) => read === 2],
    ['every time', () => true],
  ])('a stray’s partner unreadable %s: the stray waits, unreported; the groups go on', async (_, fails) => {
    const cloud = cloudWithFleet(2)
    const stray = strayOf(cloud)
    const partner = stray.tags['launched-for-replacing-instance'] ?? ''
    const describe = cloud.describeInstances.bind(cloud)
    let partnerReads = 0
    cloud.describeInstances = async (ids, options) => {
      if (ids.includes(partner) && fails(++partnerReads)) throw awsError('InternalError', 500, 'try again')
      return describe(ids, options)
    }
    const h = harness({ 'us-east-1': cloud })
    const summary = await h.run()
    expect(summary.regions[0]?.error).toBeUndefined()
    expect(launchesFor(cloud, 'web').length).toBeGreaterThan(0)
    expect(cloud.instances.get(stray.id)?.state).toBe('running')
    // Unseen, its partner would read as gone from EC2's view: the stray, refused, reported as not spotswap's.
    expect(h.recorded.metrics.flatMap((m) => m.values.map((v) => v.name))).not.toContain('UntrustedInstances')

    cloud.describeInstances = describe
    h.advanceMinutes(5)
    await h.run()
    expect(cloud.instances.get(stray.id)?.state).toBe('terminated')
  })

  it('the partners launches name unreadable: their group waits and nothing is done to its launch; the others go on', async () => {
    const cloud = cloudWithFleet(2)
    cloud.addGroup('api', { maxSize: 2 })
    cloud.addInstance({ group: 'api', zone: 'us-east-1d', launchTime: new Date(START.getTime() - 6e6) })
    // A launch whose partner was scaled in since: only the partner's record says the launch is spotswap's.
    const partner = cloud.addInstance({ state: 'terminated', zone: 'us-east-1d' })
    const launch = cloud.addInstance({
      lifecycle: 'spot',
      zone: 'us-east-1d',
      tags: {
        'launched-for-asg': 'api',
        'launched-for-replacing-instance': partner.id,
        [TAG_LAUNCH_TEMPLATE_ID]: cloud.group('api').launchTemplate?.id ?? '',
      },
    })
    cloud.seedInstanceTags(partner.id, { [TAG_REPLACEMENT_ATTEMPT]: `1:${launch.id}@${START.toISOString()}` })
    const describe = cloud.describeInstances.bind(cloud)
    cloud.describeInstances = async (ids, options) => {
      if (options?.includeTerminated && ids.includes(partner.id))
        throw awsError('InternalError', 500, 'try again')
      return describe(ids, options)
    }
    const h = harness({ 'us-east-1': cloud })
    const summary = await h.run()
    expect(summary.regions[0]?.error).toBeUndefined()
    expect(launchesFor(cloud, 'web').length).toBeGreaterThan(0)
    expect(launchesFor(cloud, 'api')).toEqual([])
    expect(cloud.instances.get(launch.id)?.state).toBe('running')
    expect(skipOf(summary, 'api')).toEqual({
      skipCode: 'markers-unverifiable',
      skipped: expect.stringContaining(
        'the partners its launches name could not be read (InternalError: try again)',
      ),
    })
    expect(h.recorded.logs).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: "launches' partners unreadable: their groups wait this run",
      }),
    )

    cloud.describeInstances = describe
    h.advanceMinutes(5)
    await h.run()
    expect(cloud.instances.get(launch.id)?.state).toBe('terminated')
  })
})
