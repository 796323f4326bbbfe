/**
 * Provenance against moto, through the real adapter: an instance tagged as spotswap's launch that is not,
 * and a member its owner detached, are never attached nor terminated.
 *
 * moto 5.2.1 writes `aws:ec2launchtemplate:id` for RunInstances (the forged instance below gets the
 * group's, as in EC2) but not for CreateFleet; spotswap's own launches get it from
 * support/launch-template-tag.ts, as EC2 writes it. The forged instance is refused for being on-demand
 * and unrecorded whatever its tags.
 */
import { DetachInstancesCommand } from '@aws-sdk/client-auto-scaling'
import { CreateTagsCommand, RunInstancesCommand } from '@aws-sdk/client-ec2'
import { expect, it } from 'vitest'
import { scheduledEvent } from '../events/builders.ts'
import { autoScaling, ec2, required } from './support/clients.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { loadReplacer, withEnvRestored } from './support/replacer-runs.ts'
import { allInstances, createGroup, groupState } from './support/world.ts'

describeMoto('provenance against moto', (moto) => {
  freshAccountPerTest(moto)

  it(
    'neither attaches nor terminates a forged on-demand instance tagged as a launch for the group; a member the owner detached keeps running',
    async () => {
      const restore = withEnvRestored()
      try {
        const seeded = await createGroup({
          name: 'web',
          desired: 2,
          min: 1,
          max: 2,
          tags: { 'spot-enabled': 'true' },
        })
        const [partner = ''] = (await groupState('web')).members.map((m) => m.id)
        const template = required(seeded.launchTemplate?.id, 'launch template')
        const launched = await ec2().send(
          new RunInstancesCommand({
            MinCount: 1,
            MaxCount: 1,
            LaunchTemplate: { LaunchTemplateId: template, Version: '$Latest' },
            SubnetId: seeded.network.subnets[0]?.id,
          }),
        )
        const forged = required(launched.Instances?.[0]?.InstanceId, 'forged instance')
        await ec2().send(
          new CreateTagsCommand({
            Resources: [forged],
            Tags: [
              { Key: 'launched-by-autospotting', Value: 'true' },
              { Key: 'launched-for-asg', Value: 'web' },
              { Key: 'launched-for-replacing-instance', Value: partner },
            ],
          }),
        )

        let now = new Date()
        const { run } = await loadReplacer('us-east-1', 'web', () => now)
        // Past the orphan deadline (grace 300 s + 3 periods), converging the group meanwhile.
        for (let i = 0; i < 8; i++) {
          await run(scheduledEvent())
          now = new Date(now.getTime() + 6 * 60_000)
        }
        const byId = new Map((await allInstances()).map((i) => [i.id, i]))
        expect(byId.get(forged)?.state).toBe('running')
        expect(byId.get(forged)?.tags['aws:ec2launchtemplate:id']).toBe(template)
        const web = await groupState('web')
        expect(web.members.map((m) => m.id)).not.toContain(forged)

        // The owner takes a spot member out of the group and keeps it.
        const spotMember = required(
          web.members.find((m) => m.lifecycle === 'spot')?.id,
          'a spot member after conversion',
        )
        await autoScaling().send(
          new DetachInstancesCommand({
            AutoScalingGroupName: 'web',
            InstanceIds: [spotMember],
            ShouldDecrementDesiredCapacity: true,
          }),
        )
        for (let i = 0; i < 6; i++) {
          await run(scheduledEvent())
          now = new Date(now.getTime() + 6 * 60_000)
        }
        const after = new Map((await allInstances()).map((i) => [i.id, i]))
        expect(after.get(spotMember)?.state).toBe('running')
        expect((await groupState('web')).members.map((m) => m.id)).not.toContain(spotMember)
        expect(after.get(forged)?.state).toBe('running')
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})
