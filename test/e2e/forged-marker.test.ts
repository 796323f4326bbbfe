/**
 * Forged markers against moto, through the real adapter and moto's KMS HMAC key: every spot member of a
 * converted group tagged `spotswap:interruption-warned` long ago, which anyone with ec2:CreateTags can
 * write; a swap record planted on the group, which anyone with autoscaling:CreateOrUpdateTags can write,
 * without a MAC or with one copied from another group. None carries a MAC for its resource, so the
 * replacer treats each as absent and takes no member out.
 */
import { CreateTagsCommand, DescribeSpotInstanceRequestsCommand } from '@aws-sdk/client-ec2'
import { expect, it } from 'vitest'
import { scheduledEvent } from '../events/builders.ts'
import { ec2 } from './support/clients.ts'
import { convertedGroup } from './support/converted-group.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { plantGroupTag, signedFor, twoRuns } from './support/group-tags.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { loadReplacer, withEnvRestored } from './support/replacer-runs.ts'
import { createGroup, groupState } from './support/world.ts'

const REGION = 'us-east-1'
const TAG_SWAP = 'spotswap:swap'

/** A record saying `web` holds two pairs above an owner's 2: believed, two members would leave with a decrement. */
const plantedRecord = (): string =>
  `v2 id=s1 phase=waiting owner=2 pairs=2 started=${new Date(Date.now() - 600_000).toISOString()}`

describeMoto('forged markers against moto', (moto) => {
  const account = freshAccountPerTest(moto)
  const signed = (group: string) =>
    signedFor({ account: account().accountId, region: REGION }, group, TAG_SWAP, plantedRecord())

  it.each([
    ['without a MAC', async () => plantedRecord()],
    [
      'with a MAC copied from another group',
      async () => {
        await createGroup({ name: 'other', desired: 0, min: 0, max: 1 })
        return signed('other')
      },
    ],
  ])(
    'takes no member out for a swap record planted %s',
    async (_how, forge) => {
      const restore = withEnvRestored()
      try {
        const members = await convertedGroup(4)
        await plantGroupTag('web', TAG_SWAP, await forge())
        expect(await twoRuns(REGION, 'web')).toEqual({ desired: 4, members: [...members].sort() })
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'acts on the same record when it carries the MAC of this group (the control)',
    async () => {
      const restore = withEnvRestored()
      try {
        await convertedGroup(4)
        await plantGroupTag('web', TAG_SWAP, await signed('web'))
        expect((await twoRuns(REGION, 'web')).desired).toBeLessThan(4)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

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
        // No MAC: treated as absent before EC2's Spot request status (the second check) is even asked.
        expect(runs[0]?.calls).not.toContain('ec2:DescribeSpotInstanceRequests')
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})
