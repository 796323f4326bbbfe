/**
 * MaxSize against moto, through the real adapter and SDK: moto applies AWS's rule (a MaxSize below desired
 * capacity lowers desired to it and the group terminates members, API_UpdateAutoScalingGroup), so a
 * MaxSize spotswap put back too low would show here as lost members. A swap undoes only its own raise.
 */
import {
  AttachInstancesCommand,
  AutoScalingClient,
  UpdateAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling'
import { afterEach, expect, it } from 'vitest'
import { scheduledEvent } from '../events/builders.ts'
import { autoScaling } from './support/clients.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { loadReplacer, withEnvRestored } from './support/replacer-runs.ts'
import { createGroup, groupState } from './support/world.ts'

const originalSend = AutoScalingClient.prototype.send

/** The `nth` AttachInstances request (a later chunk of 20) is refused, as AWS refuses a bad request. */
const refuseAttach = (nth: number): void => {
  let seen = 0
  const send = originalSend as (this: AutoScalingClient, command: unknown) => Promise<unknown>
  AutoScalingClient.prototype.send = async function (this: AutoScalingClient, command: unknown) {
    if (command instanceof AttachInstancesCommand && ++seen === nth)
      throw Object.assign(new Error('refused by the test'), {
        name: 'ValidationError',
        $fault: 'client',
        $metadata: { httpStatusCode: 400 },
      })
    return send.call(this, command)
  } as typeof AutoScalingClient.prototype.send
}

const swapRecord = (tags: Record<string, string>): string | undefined => tags['spotswap:swap']

describeMoto('MaxSize against moto', (moto) => {
  freshAccountPerTest(moto)
  afterEach(() => {
    AutoScalingClient.prototype.send = originalSend
  })

  it(
    "leaves the owner's MaxSize of 10, set during a swap, as it is when the swap closes",
    async () => {
      const restore = withEnvRestored()
      try {
        await createGroup({ name: 'web', desired: 2, min: 1, max: 2, tags: { 'spot-enabled': 'true' } })
        let now = new Date()
        const { run } = await loadReplacer('us-east-1', 'web', () => now)
        let raised: string | undefined
        for (let i = 0; i < 4 && raised === undefined; i++) {
          await run(scheduledEvent())
          now = new Date(now.getTime() + 6 * 60_000)
          raised = swapRecord((await groupState('web')).tags)?.match(/ raised=(\d+)/)?.[1]
        }
        expect(raised, 'a swap that raised MaxSize is open').toBeDefined()
        expect((await groupState('web')).max).toBe(Number(raised))
        // A scheduled action (or the console) sets MaxSize alone mid-swap.
        await autoScaling().send(
          new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: 'web', MaxSize: 10 }),
        )
        for (let i = 0; i < 6; i++) {
          await run(scheduledEvent())
          now = new Date(now.getTime() + 6 * 60_000)
        }
        const web = await groupState('web')
        expect(swapRecord(web.tags)).toBeUndefined()
        expect({ desired: web.desired, min: web.min, max: web.max }).toEqual({ desired: 2, min: 1, max: 10 })
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    "never lowers desired capacity below the owner's when a later attach chunk of a swap of 22 pairs fails",
    async () => {
      const restore = withEnvRestored()
      try {
        const owner = 22
        await createGroup({
          name: 'web',
          desired: owner,
          min: 1,
          max: owner,
          tags: { 'spot-enabled': 'true', autospotting_max_replacements_in_flight: '100%' },
        })
        let now = new Date()
        const { run } = await loadReplacer('us-east-1', 'web', () => now)
        await run(scheduledEvent())
        now = new Date(now.getTime() + 6 * 60_000)
        refuseAttach(2)
        await run(scheduledEvent())
        const afterFailure = await groupState('web')
        // The first chunk of 20 joined; MaxSize stays raised for the next run to judge.
        expect(afterFailure.desired).toBe(owner + 20)
        expect(afterFailure.max).toBe(2 * owner)
        AutoScalingClient.prototype.send = originalSend
        const seen = [afterFailure]
        for (let i = 0; i < 6; i++) {
          now = new Date(now.getTime() + 6 * 60_000)
          await run(scheduledEvent())
          seen.push(await groupState('web'))
        }
        for (const state of seen) {
          expect(state.desired).toBeGreaterThanOrEqual(owner)
          expect(state.members.filter((m) => m.lifecycleState === 'InService').length).toBeGreaterThanOrEqual(
            owner,
          )
        }
        const last = seen.at(-1)
        expect(swapRecord(last?.tags ?? {})).toBeUndefined()
        expect(last?.max).toBeGreaterThanOrEqual(last?.desired ?? 0)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})
