/**
 * Serve before retire against moto_server: a group behind a target group or a classic load balancer is
 * swapped by the real replacer, and the AWS adapter reads load-balancer health as moto reports it.
 *
 * Where moto differs from AWS, the tests assert around it (the `quirk:` cases pin the difference):
 * - a target registered by Auto Scaling is `healthy` at once; AWS reports `initial` until HealthyThreshold
 *   checks pass (https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_TargetHealth.html,
 *   https://docs.aws.amazon.com/elasticloadbalancing/latest/application/target-group-health-checks.html);
 *   a classic load balancer likewise reports `InService` at once. So moto cannot show a swap waiting for
 *   health: that is covered against FakeCloud (test/replacer/serve-before-retire.test.ts).
 * - a target group keeps an instance registered (and `healthy`) after DetachInstances and after
 *   TerminateInstanceInAutoScalingGroup; AWS deregisters it from the group's target groups
 *   (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_DetachInstances.html) and drains it
 *   before terminating it (https://docs.aws.amazon.com/elasticloadbalancing/latest/classic/config-conn-drain.html).
 *   The classic load balancer does deregister it, as AWS does.
 * - DescribeAutoScalingGroups carries TargetGroupARNs and LoadBalancerNames but no TrafficSources; AWS
 *   also lists every traffic source there (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_AutoScalingGroup.html).
 */
import {
  DescribeAutoScalingGroupsCommand,
  DetachInstancesCommand,
  TerminateInstanceInAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling'
import { DeleteTargetGroupCommand } from '@aws-sdk/client-elastic-load-balancing-v2'
import { expect, it } from 'vitest'
import type { ApiCallName } from '../../lambdas/aws/context.ts'
import { toTrafficSources } from '../../lambdas/aws/convert-auto-scaling.ts'
import { HEALTH_DEADLINE_MAX_SECONDS, HEALTH_POLL_SECONDS } from '../../lambdas/core/constants.ts'
import { groupRunRequestEvent } from '../../lambdas/core/events/definitions.ts'
import { trafficSourceKey } from '../../lambdas/core/port.ts'
import { scheduledEvent, viaSqs } from '../events/builders.ts'
import { autoScaling, elbv2, required } from './support/clients.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import {
  classicHealth,
  createClassicLoadBalancer,
  createTargetGroup,
  targetHealth,
} from './support/load-balancers.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { loadCloud, loadReplacer, type RunAction, withEnvRestored } from './support/replacer-runs.ts'
import { createGroup, createNetwork, createSpotInstances, groupState, type Network } from './support/world.ts'

const REGION = 'us-east-1'
/** Not the defaults (30 s × 5, 30 s × 10), so the settings read are visibly the group's own. */
const TARGET_GROUP_CHECK = { intervalSeconds: 15, healthyThreshold: 3 }
const CLASSIC_CHECK = { intervalSeconds: 10, healthyThreshold: 4 }
const ALL_GROUPS = { tagKey: undefined, tagValues: [] }
const TARGET_HEALTH: ApiCallName = 'elasticloadbalancing:DescribeTargetHealth'
const INSTANCE_HEALTH: ApiCallName = 'elasticloadbalancing:DescribeInstanceHealth'

interface Balancers {
  readonly network: Network
  readonly targetGroupArns: readonly string[]
  readonly loadBalancerNames: readonly string[]
}

const balancersFor = async (kinds: { targetGroup: boolean; classic: boolean }): Promise<Balancers> => {
  const network = await createNetwork(REGION)
  const targetGroupArns = kinds.targetGroup
    ? [await createTargetGroup({ name: 'web-tg', network, healthCheck: TARGET_GROUP_CHECK })]
    : []
  const loadBalancerNames = kinds.classic
    ? [await createClassicLoadBalancer({ name: 'web-classic', network, healthCheck: CLASSIC_CHECK })]
    : []
  return { network, targetGroupArns, loadBalancerNames }
}

/** A group of one on-demand member behind the balancers, at desired = MaxSize, as an owner sets it. */
const seedGroup = (balancers: Balancers, tags: Record<string, string> = { 'spot-enabled': 'true' }) =>
  createGroup({
    name: 'web',
    desired: 1,
    min: 1,
    max: 1,
    tags,
    network: balancers.network,
    targetGroupArns: balancers.targetGroupArns,
    loadBalancerNames: balancers.loadBalancerNames,
  })

const kinds = (actions: readonly RunAction[]) => actions.map((a) => `${a.kind}:${a.status}`)

interface Behind {
  readonly behind: string
  readonly balancers: { readonly targetGroup: boolean; readonly classic: boolean }
  /** How the replacer reads the health of a replacement behind them. */
  readonly healthReads: readonly ApiCallName[]
}

const BEHIND: readonly Behind[] = [
  {
    behind: 'a target group',
    balancers: { targetGroup: true, classic: false },
    healthReads: [TARGET_HEALTH],
  },
  {
    behind: 'a classic load balancer',
    balancers: { targetGroup: false, classic: true },
    healthReads: [INSTANCE_HEALTH],
  },
  {
    behind: 'both',
    balancers: { targetGroup: true, classic: true },
    healthReads: [TARGET_HEALTH, INSTANCE_HEALTH],
  },
]

describeMoto('serve before retire against moto', (moto) => {
  freshAccountPerTest(moto, { region: REGION })

  it.each(BEHIND)(
    'behind $behind: one run attaches the replacement, the early look it asks for retires the partner once the replacement serves',
    async ({ balancers: which, healthReads }) => {
      const restore = withEnvRestored()
      try {
        const balancers = await balancersFor(which)
        await seedGroup(balancers)
        const [partner] = (await groupState('web')).members.map((m) => m.id)
        let now = new Date()
        const { run, looks } = await loadReplacer(REGION, 'web', () => now)

        const launch = await run(scheduledEvent())
        expect(kinds(launch.actions)).toEqual(['launch-spot:done'])
        // The launch's own look: behind a load balancer a replacement is attached once it runs, not after
        // the group's grace period (moto's 300 s), which Auto Scaling applies to attached instances too.
        expect(looks).toEqual([{ group: 'web', delaySeconds: HEALTH_POLL_SECONDS }])
        looks.length = 0

        // At that look the replacement runs (moto: at once): the swap attaches and nothing leaves.
        now = new Date(now.getTime() + HEALTH_POLL_SECONDS * 1000)
        const attach = await run(scheduledEvent())
        expect(kinds(attach.actions)).toEqual(['swap:done'])
        expect(attach.calls).toContain('autoscaling:AttachInstances')
        expect(attach.calls).not.toContain('autoscaling:TerminateInstanceInAutoScalingGroup')
        for (const read of healthReads) expect(attach.calls).not.toContain(read)
        const attached = await groupState('web')
        expect(attached.members.map((m) => [m.lifecycle, m.lifecycleState]).sort()).toEqual([
          ['on-demand', 'InService'],
          ['spot', 'InService'],
        ])
        expect(attached.members.map((m) => m.id)).toContain(partner)
        expect({ desired: attached.desired, max: attached.max }).toEqual({ desired: 2, max: 2 })
        expect(looks).toEqual([{ group: 'web', delaySeconds: HEALTH_POLL_SECONDS }])
        const replacement = required(
          attached.members.find((m) => m.lifecycle === 'spot')?.id,
          'attached replacement',
        )

        // The early look, delivered when SQS would: health is read first, the replacement serves (moto: at
        // once), so the partner goes and the swap is over in the same run.
        now = new Date(now.getTime() + HEALTH_POLL_SECONDS * 1000)
        const look = await run(viaSqs(groupRunRequestEvent('look-1', REGION, 'web', now)))
        expect(kinds(look.actions)).toEqual(['complete-swap:done', 'close-swap:done'])
        expect(look.actions[0]).toMatchObject({ retire: 'partner' })
        const retiredAt = look.calls.indexOf('autoscaling:TerminateInstanceInAutoScalingGroup')
        for (const read of healthReads) {
          expect(look.calls.indexOf(read)).toBeGreaterThanOrEqual(0)
          expect(look.calls.indexOf(read)).toBeLessThan(retiredAt)
        }
        const after = await groupState('web')
        expect({ desired: after.desired, min: after.min, max: after.max }).toEqual({
          desired: 1,
          min: 1,
          max: 1,
        })
        expect(after.members.map((m) => [m.id, m.lifecycle, m.lifecycleState])).toEqual([
          [replacement, 'spot', 'InService'],
        ])
        expect(after.tags['spotswap:original-max-size']).toBeUndefined()
        for (const arn of balancers.targetGroupArns)
          expect((await targetHealth(arn)).get(replacement)?.state).toBe('healthy')
        for (const name of balancers.loadBalancerNames)
          expect([...(await classicHealth(name)).keys()]).toEqual([replacement])

        // Converged: the next scheduled run sees the new member serve and only settles it (its launch
        // tags, the memory that it never served, give way to spotswap:joined-group); the one after has
        // nothing to do and reads no health.
        now = new Date(now.getTime() + 6 * 60_000)
        const settling = await run(scheduledEvent())
        expect(settling.actions.map((a) => a.kind)).toEqual(['settle-members'])
        for (const read of healthReads) expect(settling.calls).toContain(read)
        now = new Date(now.getTime() + 6 * 60_000)
        const settled = await run(scheduledEvent())
        expect(settled.actions).toEqual([])
        for (const read of healthReads) expect(settled.calls).not.toContain(read)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'retires no partner on health it cannot read; past the deadline the replacement leaves (the target group was deleted)',
    async () => {
      const restore = withEnvRestored()
      try {
        const balancers = await balancersFor({ targetGroup: true, classic: false })
        await seedGroup(balancers)
        const [partner] = (await groupState('web')).members.map((m) => m.id)
        let now = new Date()
        const { run } = await loadReplacer(REGION, 'web', () => now)
        await run(scheduledEvent())
        now = new Date(now.getTime() + 6 * 60_000)
        expect(kinds((await run(scheduledEvent())).actions)).toEqual(['swap:done'])
        // AWS allows this too: only listener and rule actions keep a target group from being deleted
        // (https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_DeleteTargetGroup.html).
        await elbv2().send(
          new DeleteTargetGroupCommand({ TargetGroupArn: required(balancers.targetGroupArns[0], 'arn') }),
        )

        // Before the deadline: the read fails, and unread health is no verdict, so nothing is retired.
        now = new Date(now.getTime() + 60_000)
        const early = await run(scheduledEvent())
        expect(early.calls).toContain('elasticloadbalancing:DescribeTargetGroups')
        expect(early.calls).not.toContain('autoscaling:TerminateInstanceInAutoScalingGroup')

        // Past the longest health deadline (HEALTH_DEADLINE_MAX_SECONDS): still unreadable, so the replacement
        // is given up with its unit; the partner, which serves, stays, and the group is as its owner set it.
        now = new Date(now.getTime() + (HEALTH_DEADLINE_MAX_SECONDS + 60) * 1000)
        const late = await run(scheduledEvent())
        expect(late.actions).not.toContainEqual(expect.objectContaining({ retire: 'partner' }))
        expect(late.actions).toContainEqual(expect.objectContaining({ retire: 'replacement' }))
        const state = await groupState('web')
        expect(state.members.map((m) => m.id)).toEqual([partner])
        expect(state.members.find((m) => m.id === partner)?.lifecycleState).toBe('InService')
        expect(state.desired).toBe(1)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})

describeMoto('trafficHealth against moto', (moto) => {
  freshAccountPerTest(moto, { region: REGION })

  /** A member of the group behind the balancers, and a running instance outside it. */
  const memberAndOutsider = async (balancers: Balancers) => {
    const seeded = await seedGroup(balancers, {})
    const [member = ''] = (await groupState('web')).members.map((m) => m.id)
    const [outsider = ''] = await createSpotInstances({
      launchTemplateId: required(seeded.launchTemplate?.id, 'launch template'),
      subnetId: required(balancers.network.subnets[0]?.id, 'subnet'),
    })
    return { member, outsider }
  }

  it('reports a member healthy and an instance outside the target group unused (Target.NotRegistered), with its health-check settings', async () => {
    const balancers = await balancersFor({ targetGroup: true, classic: false })
    const { member, outsider } = await memberAndOutsider(balancers)
    const calls: ApiCallName[] = []
    const cloud = await loadCloud(REGION, (name) => calls.push(name))
    const [group] = await cloud.describeGroups(ALL_GROUPS)

    const health = await cloud.trafficHealth(required(group, 'group').trafficSources, [member, outsider])

    const key = trafficSourceKey('target-group', required(balancers.targetGroupArns[0], 'arn'))
    // moto answers a named instance the group never registered as AWS documents (API_TargetHealth above).
    expect(health.states).toEqual(
      new Map([
        [member, new Map([[key, { state: 'healthy' }]])],
        [outsider, new Map([[key, { state: 'unused', reason: 'Target.NotRegistered' }]])],
      ]),
    )
    expect(health.settings).toEqual(new Map([[key, TARGET_GROUP_CHECK]]))
    expect(calls).toEqual([
      'autoscaling:DescribeAutoScalingGroups',
      'elasticloadbalancing:DescribeTargetGroups',
      'elasticloadbalancing:DescribeTargetHealth',
    ])
  })

  it('reports a member InService in a classic load balancer and nothing for an instance not registered, with its health-check settings', async () => {
    const balancers = await balancersFor({ targetGroup: false, classic: true })
    const { member, outsider } = await memberAndOutsider(balancers)
    const calls: ApiCallName[] = []
    const cloud = await loadCloud(REGION, (name) => calls.push(name))
    const [group] = await cloud.describeGroups(ALL_GROUPS)

    const health = await cloud.trafficHealth(required(group, 'group').trafficSources, [member, outsider])

    // The adapter asks for every registered instance, so one not registered is absent. (Named, moto answers
    // `Unknown` for it; AWS documents InvalidInstance among the errors of the call:
    // https://docs.aws.amazon.com/elasticloadbalancing/2012-06-01/APIReference/API_DescribeInstanceHealth.html.)
    const key = trafficSourceKey('classic', 'web-classic')
    expect(health.states).toEqual(
      new Map([[member, new Map([[key, { state: 'InService', reason: 'N/A' }]])]]),
    )
    expect(health.settings).toEqual(new Map([[key, CLASSIC_CHECK]]))
    expect(calls).toEqual([
      'autoscaling:DescribeAutoScalingGroups',
      'elasticloadbalancing:DescribeLoadBalancers',
      'elasticloadbalancing:DescribeInstanceHealth',
    ])
  })

  it('reads nothing for no instances', async () => {
    const balancers = await balancersFor({ targetGroup: true, classic: true })
    const calls: ApiCallName[] = []
    const cloud = await loadCloud(REGION, (name) => calls.push(name))

    const health = await cloud.trafficHealth(
      {
        targetGroupArns: balancers.targetGroupArns,
        classicLoadBalancerNames: balancers.loadBalancerNames,
        unreadable: [],
      },
      [],
    )

    expect(health).toEqual({ settings: new Map(), states: new Map() })
    expect(calls).toEqual([])
  })
})

describeMoto('traffic sources of a group from moto', (moto) => {
  freshAccountPerTest(moto, { region: REGION })

  it('converts TargetGroupARNs and LoadBalancerNames; moto sends no TrafficSources, and AWS listing them again changes nothing', async () => {
    const balancers = await balancersFor({ targetGroup: true, classic: true })
    await seedGroup(balancers)
    const described = await autoScaling().send(
      new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: ['web'] }),
    )
    const group = required(described.AutoScalingGroups?.[0], 'group web')
    const arn = required(balancers.targetGroupArns[0], 'arn')
    const expected = { targetGroupArns: [arn], classicLoadBalancerNames: ['web-classic'], unreadable: [] }

    expect(group.TrafficSources).toBeUndefined()
    expect(toTrafficSources(group)).toEqual(expected)
    expect(
      toTrafficSources({
        ...group,
        TrafficSources: [
          { Identifier: arn, Type: 'elbv2' },
          { Identifier: 'web-classic', Type: 'elb' },
        ],
      }),
    ).toEqual(expected)
    const cloud = await loadCloud(REGION, () => {})
    expect((await cloud.describeGroups(ALL_GROUPS)).map((g) => g.trafficSources)).toEqual([expected])
  })
})

describeMoto('what moto shows of load balancers behind a group', (moto) => {
  freshAccountPerTest(moto, { region: REGION })

  /** Two members behind both kinds of load balancer, with room to take one out with a decrement. */
  const twoMembers = async () => {
    const balancers = await balancersFor({ targetGroup: true, classic: true })
    await createGroup({
      name: 'web',
      desired: 2,
      min: 1,
      max: 2,
      network: balancers.network,
      targetGroupArns: balancers.targetGroupArns,
      loadBalancerNames: balancers.loadBalancerNames,
    })
    const members = (await groupState('web')).members.map((m) => m.id)
    return { arn: required(balancers.targetGroupArns[0], 'arn'), members }
  }

  it('quirk: members are healthy in the target group and InService in the classic load balancer at once (AWS: initial first)', async () => {
    const { arn, members } = await twoMembers()

    const healthy = { state: 'healthy', reason: undefined }
    expect(await targetHealth(arn)).toEqual(new Map(members.map((id) => [id, healthy])))
    const inService = { state: 'InService', reason: 'N/A' }
    expect(await classicHealth('web-classic')).toEqual(new Map(members.map((id) => [id, inService])))
  })

  it.each([
    [
      'DetachInstances',
      (id: string) =>
        autoScaling().send(
          new DetachInstancesCommand({
            AutoScalingGroupName: 'web',
            InstanceIds: [id],
            ShouldDecrementDesiredCapacity: true,
          }),
        ),
    ],
    [
      'TerminateInstanceInAutoScalingGroup',
      (id: string) =>
        autoScaling().send(
          new TerminateInstanceInAutoScalingGroupCommand({
            InstanceId: id,
            ShouldDecrementDesiredCapacity: true,
          }),
        ),
    ],
  ])(
    'quirk: after %s the target group still lists the instance healthy (AWS deregisters it); the classic load balancer drops it',
    async (_call, takeOut) => {
      const { arn, members } = await twoMembers()
      const [leaver = '', stayer = ''] = members

      await takeOut(leaver)

      expect((await groupState('web')).members.map((m) => m.id)).toEqual([stayer])
      expect((await targetHealth(arn)).get(leaver)?.state).toBe('healthy')
      expect([...(await classicHealth('web-classic')).keys()]).toEqual([stayer])
    },
  )
})
