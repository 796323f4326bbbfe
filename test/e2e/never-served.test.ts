/**
 * A replacement that never serves leaves its group, against moto_server, with the real replacer and AWS
 * adapter. moto's target groups report every registered running target healthy at once, so the
 * replacement is made never to serve by deregistering it from the target group (AWS then reports it
 * `unused`, Target.NotRegistered: https://docs.aws.amazon.com/elasticloadbalancing/latest/APIReference/API_TargetHealth.html).
 * (quirk: moto registers the group's members with its target group again when it attaches others.)
 */
import { UpdateAutoScalingGroupCommand } from '@aws-sdk/client-auto-scaling'
import { DeregisterTargetsCommand } from '@aws-sdk/client-elastic-load-balancing-v2'
import { expect, it } from 'vitest'
import { scheduledEvent } from '../events/builders.ts'
import { autoScaling, elbv2, required } from './support/clients.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { createTargetGroup, targetHealth } from './support/load-balancers.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { loadReplacer, withEnvRestored } from './support/replacer-runs.ts'
import { createGroup, createNetwork, groupState } from './support/world.ts'

const REGION = 'us-east-1'

describeMoto('a replacement that never serves, against moto', (moto) => {
  freshAccountPerTest(moto, { region: REGION })

  it(
    'released when the owner resized mid-swap and deregistered from its target group, it leaves past its deadline without a decrement',
    async () => {
      const restore = withEnvRestored()
      try {
        const network = await createNetwork(REGION)
        const arn = await createTargetGroup({
          name: 'web-tg',
          network,
          healthCheck: { intervalSeconds: 15, healthyThreshold: 3 },
        })
        await createGroup({
          name: 'web',
          desired: 1,
          min: 1,
          max: 1,
          tags: { 'spot-enabled': 'true' },
          network,
          targetGroupArns: [arn],
        })
        let now = new Date()
        const { run } = await loadReplacer(REGION, 'web', () => now)
        await run(scheduledEvent())
        // After moto's 300 s grace period the swap attaches its replacement (desired 1 -> 2, MaxSize 2).
        now = new Date(now.getTime() + 6 * 60_000)
        expect((await run(scheduledEvent())).actions.map((a) => a.kind)).toContain('swap')
        const attached = await groupState('web')
        const replacement = required(
          attached.members.find((m) => m.lifecycle === 'spot')?.id,
          'attached replacement',
        )

        // The owner resizes mid-swap: the swap releases its pair and closes, the replacement an ordinary
        // member. It is then taken out of the target group: it never serves.
        await autoScaling().send(
          new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: 'web', MaxSize: 3, DesiredCapacity: 3 }),
        )
        await elbv2().send(
          new DeregisterTargetsCommand({ TargetGroupArn: arn, Targets: [{ Id: replacement }] }),
        )
        expect((await targetHealth(arn)).has(replacement)).toBe(false)
        now = new Date(now.getTime() + 60_000)
        const released = await run(scheduledEvent())
        expect(released.actions.map((a) => a.kind)).toEqual(
          expect.arrayContaining(['release-pair', 'close-swap']),
        )
        expect((await groupState('web')).members.map((m) => m.id)).toContain(replacement)

        // Before its deadline it stays; health is read for it, and it is not settled.
        now = new Date(now.getTime() + 5 * 60_000)
        const early = await run(scheduledEvent())
        expect(early.calls).toContain('elasticloadbalancing:DescribeTargetHealth')
        expect(early.actions.map((a) => a.kind)).not.toContain('settle-members')
        expect(early.actions.map((a) => a.kind)).not.toContain('release-doomed')

        // Past it: it leaves through Auto Scaling without a decrement; desired stays the owner's. (quirk:
        // moto registered it with the target group again when the early run attached the owner's new
        // members' replacements; AWS registers only the instances attached. So it is taken out again.)
        await elbv2().send(
          new DeregisterTargetsCommand({ TargetGroupArn: arn, Targets: [{ Id: replacement }] }),
        )
        now = new Date(now.getTime() + 40 * 60_000)
        const late = await run(scheduledEvent())
        expect(late.actions).toContainEqual(
          expect.objectContaining({ kind: 'release-doomed', status: 'done' }),
        )
        expect(late.calls).toContain('autoscaling:TerminateInstanceInAutoScalingGroup')
        const after = await groupState('web')
        expect(after.members.map((m) => m.id)).not.toContain(replacement)
        expect(after.desired).toBe(3)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})
