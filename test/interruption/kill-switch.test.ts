/**
 * The interruption handler obeys the kill switch: with it on (or hard, or unreadable), a warning is
 * observed and reported, and nothing is written; EC2 takes the instance either way.
 */
import { describe, expect, it } from 'vitest'
import type { KillSwitch } from '../../lambdas/core/region/kill-switch.ts'
import { createHandler } from '../../lambdas/interruption/create-handler.ts'
import * as events from '../events/builders.ts'
import { FakeCloud } from '../fakes/fake-cloud.ts'
import { seedConvertedGroup, testDeps } from './support.ts'

const REGION = 'us-east-1'

const setup = (killSwitch: KillSwitch) => {
  const cloud = new FakeCloud(REGION)
  const { ids } = seedConvertedGroup(cloud)
  let reads = 0
  const deps = {
    ...testDeps([cloud]),
    killSwitch: async () => {
      reads++
      return killSwitch
    },
  }
  return { cloud, ids, deps, handler: createHandler(deps), reads: () => reads }
}

describe('interruption handler with the kill switch', () => {
  it.each<KillSwitch>([
    { mode: 'on' },
    { mode: 'hard' },
    { mode: 'on', problem: 'kill switch unreadable (AccessDeniedException: no): treated as on' },
  ])('holds every action of a warning when the switch is %j', async (killSwitch) => {
    const { cloud, ids, deps, handler, reads } = setup(killSwitch)
    const [doomed] = ids as [string]
    const summary = await handler(
      events.spotInterruptionWarning({ instanceId: doomed, action: 'terminate', region: REGION }),
      {},
    )
    expect(cloud.mutations).toEqual([])
    expect(reads()).toBe(1)
    expect(summary.results).toEqual([
      expect.objectContaining({
        outcome: 'skipped',
        reason: 'kill-switch',
        detail: expect.stringContaining('held untag-instance, terminate-in-group'),
      }),
    ])
    expect(deps.telemetry.emitted()).toContainEqual(
      expect.objectContaining({ name: 'ActionsHeldByKillSwitch', value: 2, dimensions: { Region: REGION } }),
    )
    expect(deps.telemetry.emitted()).toContainEqual(
      expect.objectContaining({ name: 'KillSwitch', value: killSwitch.mode === 'hard' ? 2 : 1 }),
    )
  })

  it('acts as usual when the switch is off', async () => {
    const { cloud, ids, handler } = setup({ mode: 'off' })
    const [doomed] = ids as [string]
    await handler(
      events.spotInterruptionWarning({ instanceId: doomed, action: 'terminate', region: REGION }),
      {},
    )
    expect(cloud.mutations.map((m) => m.method)).toEqual(['untagInstances', 'terminateInGroup'])
  })
})
