/**
 * A forged interruption marker against moto, through the real adapter: every spot member of a converted
 * group tagged `spotswap:interruption-warned` long ago, which anyone with ec2:CreateTags can write. EC2's
 * Spot request status does not say interrupted (moto: `fulfilled`, its only status), so the replacer
 * takes none of them out.
 */
import {
  AttachInstancesCommand,
  TerminateInstanceInAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling'
import { CreateTagsCommand, DescribeSpotInstanceRequestsCommand } from '@aws-sdk/client-ec2'
import { expect, it } from 'vitest'
import { scheduledEvent } from '../events/builders.ts'
import { autoScaling, ec2, required } from './support/clients.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { loadReplacer, withEnvRestored } from './support/replacer-runs.ts'
import { createGroup, createSpotInstances, groupState } from './support/world.ts'

/** A group of `size` members converted as a swap leaves it: spot launches attached, originals retired. */
const convertedGroup = async (size: number): Promise<string[]> => {
  const tags = { 'spot-enabled': 'true' }
  const seeded = await createGroup({ name: 'web', desired: size, min: size, max: size + 1, tags })
  const launchTemplateId = required(seeded.launchTemplate?.id, 'launch template')
  const subnetId = required(seeded.network.subnets[0]?.id, 'subnet')
  for (const original of (await groupState('web')).members.map((m) => m.id)) {
    const [spot] = await createSpotInstances({
      launchTemplateId,
      subnetId,
      tags: {
        ...tags,
        'launched-by-autospotting': 'true',
        'launched-for-asg': 'web',
        'launched-for-replacing-instance': original,
      },
    })
    await autoScaling().send(
      new AttachInstancesCommand({ AutoScalingGroupName: 'web', InstanceIds: [spot as string] }),
    )
    await autoScaling().send(
      new TerminateInstanceInAutoScalingGroupCommand({
        InstanceId: original,
        ShouldDecrementDesiredCapacity: true,
      }),
    )
  }
  const state = await groupState('web')
  if (!state.members.every((m) => m.lifecycle === 'spot')) throw new Error('seed: not converted')
  return state.members.map((m) => m.id)
}

describeMoto('forged interruption marker against moto', (moto) => {
  freshAccountPerTest(moto)

  it(
    'takes no spot member out when every one is tagged as warned an hour ago',
    async () => {
      const restore = withEnvRestored()
      try {
        const members = await convertedGroup(3)
        // moto quirk (support/spot-request-status.ts): CreateFleet's spot instances have Spot requests, `fulfilled`.
        const requests = await ec2().send(
          new DescribeSpotInstanceRequestsCommand({ Filters: [{ Name: 'instance-id', Values: members }] }),
        )
        expect(
          (requests.SpotInstanceRequests ?? []).map((r) => [r.InstanceId, r.Status?.Code]).sort(),
        ).toEqual(members.map((id) => [id, 'fulfilled']).sort())
        const forgedAt = new Date(Date.now() - 3_600_000).toISOString()
        await ec2().send(
          new CreateTagsCommand({
            Resources: members,
            Tags: [{ Key: 'spotswap:interruption-warned', Value: forgedAt }],
          }),
        )

        let now = new Date()
        const { run } = await loadReplacer('us-east-1', 'web', () => now)
        const runs = []
        for (let i = 0; i < 2; i++) {
          runs.push(await run(scheduledEvent()))
          now = new Date(now.getTime() + 6 * 60_000)
        }
        const after = await groupState('web')
        expect(after.desired).toBe(3)
        expect(after.members.map((m) => m.id).sort()).toEqual([...members].sort())
        expect(runs.flatMap((r) => r.actions).filter((a) => a.kind === 'release-doomed')).toEqual([])
        expect(runs[0]?.calls).toContain('ec2:DescribeSpotInstanceRequests')
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})
