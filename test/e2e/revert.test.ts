/**
 * `spotswap revert` against moto, through the real adapter and moto's KMS HMAC key: a run request writes
 * the signed marker, and scheduled runs raise desired capacity through Auto Scaling, retire a spot member
 * with a decrement once the new on-demand member serves, until the group is all on-demand and marked done.
 * moto quirk: members Auto Scaling launches are InService at once, and the group has no load balancer, so
 * each new member serves in the run after its raise. The runs keep moto's clock (the raised member's
 * LaunchTime is moto's time, and the revert counts members launched since its raise). A marker planted
 * without a MAC, or signed for an earlier raise and replayed past its deadline, does nothing.
 */
import { UpdateAutoScalingGroupCommand } from '@aws-sdk/client-auto-scaling'
import { expect, it } from 'vitest'
import { REGION_LANES } from '../../lambdas/core/constants.ts'
import { laneOf } from '../../lambdas/core/region/lanes.ts'
import { revertRequestEvent } from '../../lambdas/replacer/event-registry.ts'
import { scheduledEvent } from '../events/builders.ts'
import { autoScaling } from './support/clients.ts'
import { convertedGroup } from './support/converted-group.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { plantGroupTag, signedFor, twoRuns } from './support/group-tags.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { loadReplacer, withEnvRestored } from './support/replacer-runs.ts'
import { groupState } from './support/world.ts'

const REGION = 'us-east-1'
const TAG_REVERT = 'spotswap:revert'
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString()

describeMoto('spotswap revert against moto', (moto) => {
  const account = freshAccountPerTest(moto)

  it(
    'brings a converted group back to all on-demand, never below its desired capacity in service',
    async () => {
      const restore = withEnvRestored()
      try {
        await convertedGroup(3)
        const { run } = await loadReplacer(REGION, 'web', () => new Date())
        await run(revertRequestEvent(REGION, new Date(), 'web', laneOf('web', REGION_LANES)))
        expect((await groupState('web')).desired).toBe(4)
        for (
          let i = 0;
          i < 10 && !(await groupState('web')).tags[TAG_REVERT]?.startsWith('v1 phase=done');
          i++
        ) {
          await run(scheduledEvent())
          const inService = (await groupState('web')).members.filter((m) => m.lifecycleState === 'InService')
          expect(inService.length).toBeGreaterThanOrEqual(3)
        }
        const after = await groupState('web')
        expect(after.tags[TAG_REVERT]).toMatch(/^v1 phase=done mac=/)
        expect(after.desired).toBe(3)
        expect(after.members.map((m) => m.lifecycle)).toEqual(['on-demand', 'on-demand', 'on-demand'])
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  // MinSize 1, so a decrement a believed marker asked for would take a member out.
  it.each([
    [
      'without a MAC',
      async (member: string) => `v1 phase=retiring owner=2 step=${member} until=${hoursAgo(-1)}`,
    ],
    [
      'signed by spotswap for an earlier raise, replayed past its deadline',
      async (member: string) =>
        signedFor(
          { account: account().accountId, region: REGION },
          'web',
          TAG_REVERT,
          `v1 phase=retiring owner=2 step=${member} until=${hoursAgo(2.5)}`,
        ),
    ],
  ])(
    'does nothing on a revert marker planted %s',
    async (_how, value) => {
      const restore = withEnvRestored()
      try {
        const members = await convertedGroup(3)
        await autoScaling().send(
          new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: 'web', MinSize: 1 }),
        )
        await plantGroupTag('web', TAG_REVERT, await value(members[0] ?? ''))
        expect(await twoRuns(REGION, 'web')).toEqual({ desired: 3, members: [...members].sort() })
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})
