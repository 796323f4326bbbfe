/** A group converted against moto as a swap leaves it: spot launches attached, originals retired. */
import {
  AttachInstancesCommand,
  TerminateInstanceInAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling'
import { autoScaling, required } from './clients.ts'
import { createGroup, createSpotInstances, groupState } from './world.ts'

/** `web` with `size` spot members, MinSize `size`, MaxSize `size` + 1; their ids. */
export const convertedGroup = async (size: number): Promise<string[]> => {
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
