/**
 * Group tags as someone other than spotswap writes them (anyone with autoscaling:CreateOrUpdateTags), with
 * or without a MAC from the account's marker key, and the scheduled runs that follow: what the forged- and
 * replayed-marker tests plant and then watch.
 */
import { CreateOrUpdateTagsCommand, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling'
import { GenerateMacCommand } from '@aws-sdk/client-kms'
import { markerMessage, withMac } from '../../../lambdas/core/markers.ts'
import { scheduledEvent } from '../../events/builders.ts'
import { autoScaling, required } from './clients.ts'
import { kms } from './marker-key.ts'
import { loadReplacer } from './replacer-runs.ts'
import { groupState } from './world.ts'

const groupArn = async (name: string): Promise<string> => {
  const described = await autoScaling().send(
    new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [name] }),
  )
  return required(described.AutoScalingGroups?.[0]?.AutoScalingGroupARN, `ARN of ${name}`)
}

/** `payload` with a MAC from the account's marker key over `group`'s ARN and `key`, as spotswap signs it. */
export const signedFor = async (
  where: { readonly account: string; readonly region: string },
  group: string,
  key: string,
  payload: string,
): Promise<string> => {
  const message = markerMessage(where, `group:${await groupArn(group)}`, key, payload)
  const { Mac } = await kms().send(
    new GenerateMacCommand({
      KeyId: process.env.MARKER_KEY_ARN,
      MacAlgorithm: 'HMAC_SHA_256',
      Message: new TextEncoder().encode(message),
    }),
  )
  return withMac(payload, Buffer.from(required(Mac, 'MAC')).toString('base64url'))
}

/** Writes `key=value` on the group directly, not propagated. */
export const plantGroupTag = (group: string, key: string, value: string) =>
  autoScaling().send(
    new CreateOrUpdateTagsCommand({
      Tags: [
        {
          ResourceId: group,
          ResourceType: 'auto-scaling-group',
          Key: key,
          Value: value,
          PropagateAtLaunch: false,
        },
      ],
    }),
  )

/** Two scheduled replacer runs five minutes apart; the group's desired capacity and members after them. */
export const twoRuns = async (region: string, group: string) => {
  let now = new Date()
  const { run } = await loadReplacer(region, group, () => now)
  for (let i = 0; i < 2; i++) {
    await run(scheduledEvent())
    now = new Date(now.getTime() + 5 * 60_000)
  }
  const after = await groupState(group)
  return { desired: after.desired, members: after.members.map((m) => m.id).sort() }
}
