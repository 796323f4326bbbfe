import { describe, expect, it } from 'vitest'
import type { CompleteSwapAction } from '../../lambdas/core/actions.ts'
import { executeActions } from '../../lambdas/replacer/execute.ts'
import { FakeCloud } from '../fakes/fake-cloud.ts'

/** A group `web` with an on-demand partner and its spot replacement, both attached (desired 2). */
const halfDone = () => {
  const cloud = new FakeCloud()
  cloud.addGroup('web', { maxSize: 4 })
  const partner = cloud.addInstance({ group: 'web' })
  const replacement = cloud.addInstance({ group: 'web', lifecycle: 'spot' })
  const action: CompleteSwapAction = {
    kind: 'complete-swap',
    group: 'web',
    pair: { spotInstanceId: replacement.id, onDemandInstanceId: partner.id },
    retire: 'partner',
    record: `1/0/${partner.id}`,
    reason: 'test',
  }
  return { cloud, partner, replacement, action }
}

describe('executeActions: finishing a half-done swap', () => {
  it('announces the retirement in the record, then retires the partner with a decrement', async () => {
    const { cloud, partner, action } = halfDone()
    const [outcome] = await executeActions(cloud, [action], false)
    expect(outcome?.status).toBe('done')
    expect(cloud.mutations.map((m) => m.method)).toEqual(['tagGroup', 'terminateInGroup'])
    expect(cloud.mutations[1]?.args).toEqual([partner.id, true])
  })

  it('retires nothing when the replacement left the group since it was observed (the handler took it)', async () => {
    const { cloud, replacement, action } = halfDone()
    await cloud.detachInstances('web', [replacement.id], true)
    cloud.calls.length = 0
    const [outcome] = await executeActions(cloud, [action], false)
    expect(outcome).toMatchObject({ status: 'failed', detail: expect.stringContaining('left the group') })
    expect(cloud.mutations).toEqual([])
  })

  it('stops at the first failed retirement: the later ones are announced against it', async () => {
    const first = halfDone()
    const second = { ...first.action, record: '0/0/i-other' }
    first.cloud.failNext('terminateInGroup', new Error('throttled'))
    const outcomes = await executeActions(first.cloud, [first.action, second], false)
    expect(outcomes.map((o) => o.status)).toEqual(['failed', 'failed'])
    expect(outcomes[1]?.detail).toBe('not attempted: a complete-swap action failed first')
  })
})
