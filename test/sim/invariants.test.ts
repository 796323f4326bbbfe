import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import {
  DOOMED_SWAP_DEADLINE_SECONDS,
  TAG_INTERRUPTION_WARNED,
  TAG_REPLACING_INSTANCE,
} from '../../lambdas/core/constants.ts'
import type { CloudPort } from '../../lambdas/core/port.ts'
import { BOOT_SECONDS, INTERRUPTION_NOTICE_SECONDS } from '../../tools/sim/constants.ts'
import { warn } from '../../tools/sim/interruptions.ts'
import { InvariantLedger, SizeLedger, snapshotRegion } from '../../tools/sim/invariant-ledger.ts'
import { checkInvocation, checkStep, RESTORE_RUNS } from '../../tools/sim/invariants.ts'
import type { SimInstance } from '../../tools/sim/state.ts'
import { group, launchSpotFor, rawScenario, type TestWorld, testWorld } from './support.ts'

const { config } = parseGlobalConfig({ MIN_ON_DEMAND_NUMBER: '1' })

/** Runs `act` as one invocation and returns the invariants it broke. */
const around = async (
  sim: TestWorld,
  act: (cloud: ReturnType<TestWorld['cloud']>) => Promise<unknown>,
  sizes = new SizeLedger(),
) => {
  const cloud = sim.cloud()
  const before = snapshotRegion(config, sim.region)
  const startedMs = sim.world.clock.now
  await act(cloud).catch(() => undefined)
  return checkInvocation(
    sim.region,
    cloud.session,
    before,
    snapshotRegion(config, sim.region),
    'now',
    sizes,
    {
      startedMs,
    },
  ).map((v) => v.invariant)
}

const attachedSpot = async (sim: TestWorld): Promise<string> => {
  const cloud = sim.cloud()
  const launched = await launchSpotFor(cloud, 'web', 'm5.large', 'us-east-1b', `t-${sim.world.clock.now}`)
  await sim.advance(BOOT_SECONDS * 1000)
  const id = launched.ok ? launched.instanceId : ''
  await cloud.setMaxSize('web', 4)
  await cloud.attachInstances('web', [id])
  return id
}

describe('invariant checks around an invocation', () => {
  it('accept a complete swap: attach, then retire the partner with a decrement', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3, max: 4 })]))
    const [partner] = sim.members('web')
    const spot = await (async () => {
      const launched = await launchSpotFor(sim.cloud(), 'web', 'm5.large', 'us-east-1b')
      await sim.advance(BOOT_SECONDS * 1000)
      return launched.ok ? launched.instanceId : ''
    })()
    expect(
      await around(sim, async (cloud) => {
        await cloud.attachInstances('web', [spot])
        await cloud.terminateInGroup(partner?.id ?? '', true)
      }),
    ).toEqual([])
  })

  it('flag capacity lost and on-demand instances retired below the minimum by spotswap', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2 })]))
    const [first, second] = sim.members('web')
    expect(
      await around(sim, async (cloud) => {
        await cloud.terminateInGroup(first?.id ?? '', true)
        await cloud.terminateInGroup(second?.id ?? '', true)
      }),
    ).toEqual(['capacity-below-desired', 'on-demand-below-minimum', 'group-size-not-restored'])
  })

  it('let an interrupted member go: its loss is EC2’s doing', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, max: 4 })]))
    const spot = await attachedSpot(sim)
    warn(sim.world, sim.region, sim.region.instances.get(spot) as SimInstance)
    expect(await around(sim, (cloud) => cloud.detachInstances('web', [spot], false))).toEqual([])
  })

  it(`allow a group left half-swapped by a crash ${RESTORE_RUNS} clean runs to be restored`, async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, max: 3 })]))
    await attachedSpot(sim)
    const sizes = new SizeLedger()
    const idle = async () => undefined
    expect(await around(sim, idle, sizes)).toEqual([])
    expect(await around(sim, idle, sizes)).toEqual(['group-size-not-restored'])
  })
})

describe('invariant 7: a swap never retires a partner while its replacement is not serving', () => {
  const TARGET_GROUP = { type: 'target-group', healthCheckIntervalSeconds: 30, healthyThreshold: 3 }

  /** The group `web` with a spot replacement of its oldest member attached; the partner and the replacement. */
  const swapped = async (groupOverrides: Record<string, unknown> = { loadBalancers: [TARGET_GROUP] }) => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, max: 4, ...groupOverrides })]))
    const partner = sim.members('web')[0] as SimInstance
    const launched = await sim.cloud().launchSpot({
      groupName: 'web',
      launchTemplate: { id: 'lt-1', name: undefined, version: '$Default' },
      launchConfigurationName: undefined,
      overrides: [
        { instanceType: 'm5.large', zone: 'us-east-1b', subnetId: 'subnet-us-east-1b', priority: 0 },
      ],
      allocationStrategy: 'lowest-price',
      tags: { 'launched-for-asg': 'web', [TAG_REPLACING_INSTANCE]: partner.id },
      clientToken: 'swap-1',
    })
    await sim.advance(BOOT_SECONDS * 1000)
    const replacement = launched.ok ? launched.instanceId : ''
    await sim.cloud().attachInstances('web', [replacement])
    return { sim, partner, replacement }
  }

  /** Runs `act` as one step of `actor` and returns the violations of invariant 7. */
  const retiring = async (
    sim: TestWorld,
    act: (cloud: ReturnType<TestWorld['cloud']>) => Promise<unknown>,
    actor: 'replacer' | 'interruption' = 'replacer',
  ) => {
    const cloud = sim.cloud(actor)
    const ctx = { config, region: sim.region, ledger: new InvariantLedger() }
    const before = snapshotRegion(config, sim.region)
    const startedMs = sim.world.clock.now
    await act(cloud)
    const run = { session: cloud.session, startedMs, onlyGroup: 'web' }
    return checkStep(ctx, [run], before, snapshotRegion(config, sim.region), 'now').filter(
      (v) => v.invariant === 'retired-before-serving',
    )
  }

  it.each([
    [
      'TerminateInstanceInAutoScalingGroup',
      (cloud: CloudPort, id: string) => cloud.terminateInGroup(id, true),
    ],
    ['DetachInstances', (cloud: CloudPort, id: string) => cloud.detachInstances('web', [id], true)],
  ])('flags %s of a partner whose attached replacement is still in its health checks', async (_, retire) => {
    const { sim, partner, replacement } = await swapped()
    const violations = await retiring(sim, (cloud) => retire(cloud, partner.id))
    expect(violations).toEqual([
      {
        at: 'now',
        group: 'web',
        invariant: 'retired-before-serving',
        detail: expect.stringContaining(
          `took ${partner.id} out of web while its replacement(s) did not serve: ${replacement} (InService; initial in target group web-1 (Elb.InitialHealthChecking))`,
        ),
      },
    ])
  })

  it('flags a partner whose replacement never turned healthy (a broken image)', async () => {
    const { sim, partner } = await swapped({ loadBalancers: [TARGET_GROUP], unhealthyReplacementFraction: 1 })
    await sim.advance(3_600_000)
    const [violation] = await retiring(sim, (cloud) => cloud.terminateInGroup(partner.id, true))
    expect(violation?.detail).toContain('unhealthy in target group web-1 (Target.FailedHealthChecks)')
  })

  it('accepts the retirement once the replacement is healthy in every load balancer', async () => {
    const { sim, partner } = await swapped()
    await sim.advance(90_000)
    expect(await retiring(sim, (cloud) => cloud.terminateInGroup(partner.id, true))).toEqual([])
  })

  it('accepts a retirement in a group without load balancers: an attached replacement serves at once', async () => {
    const { sim, partner } = await swapped({})
    expect(await retiring(sim, (cloud) => cloud.terminateInGroup(partner.id, true))).toEqual([])
  })

  it.each([
    ['before its swap deadline', DOOMED_SWAP_DEADLINE_SECONDS - 1, 1],
    ['past its swap deadline, when EC2 takes it anyway', DOOMED_SWAP_DEADLINE_SECONDS, 0],
  ])('judges a partner EC2 warned of its interruption %s', async (_, secondsAgo, expected) => {
    const { sim, partner } = await swapped()
    const warnedMs = sim.world.clock.now - secondsAgo * 1000
    partner.interruptAtMs = warnedMs + INTERRUPTION_NOTICE_SECONDS * 1000
    partner.tags = { ...partner.tags, [TAG_INTERRUPTION_WARNED]: new Date(warnedMs).toISOString() }
    // The request itself takes 25 ms of simulated time: judged as of when AWS applies it.
    const violations = await retiring(sim, (cloud) => cloud.terminateInGroup(partner.id, true))
    expect(violations).toHaveLength(expected)
  })

  it('flags a partner retired on a forged warning tag, however old: only EC2 warning it excuses the retirement', async () => {
    const { sim, partner } = await swapped()
    partner.tags = { ...partner.tags, [TAG_INTERRUPTION_WARNED]: '2020-01-01T00:00:00.000Z' }
    expect(await retiring(sim, (cloud) => cloud.terminateInGroup(partner.id, true))).toHaveLength(1)
  })

  it.each([
    ['EC2 never warned (a forged tag)', false, 1],
    ['EC2 warned', true, 0],
  ])('judges a replacer releasing without a decrement a spot member %s', async (_, warned, expected) => {
    const { sim, replacement } = await swapped({})
    const member = sim.region.instances.get(replacement) as SimInstance
    member.tags = { ...member.tags, [TAG_INTERRUPTION_WARNED]: '2020-01-01T00:00:00.000Z' }
    if (warned) member.interruptAtMs = sim.world.clock.now + 1000
    const violations = await retiring(sim, (cloud) => cloud.terminateInGroup(replacement, false))
    expect(violations).toHaveLength(expected)
    if (expected > 0) expect(violations[0]?.detail).toContain('never warned it')
  })

  it('leaves the interruption handler and failed requests out: only a retirement AWS applied for a replacer run counts', async () => {
    const { sim, partner } = await swapped()
    expect(
      await retiring(sim, (cloud) => cloud.detachInstances('web', [partner.id], true), 'interruption'),
    ).toEqual([])
    const again = await swapped()
    const refused = await retiring(again.sim, (cloud) =>
      cloud.detachInstances('web', [again.partner.id, 'i-0000000000000ffff'], true).catch(() => undefined),
    )
    expect(refused).toEqual([])
  })
})
