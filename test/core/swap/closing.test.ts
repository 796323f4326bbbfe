import { describe, expect, it } from 'vitest'
import { TAG_REPLACING_INSTANCE, TAG_SWAP_ID } from '../../../lambdas/core/constants.ts'
import { releaseAction } from '../../../lambdas/core/swap/closing.ts'
import { swapIdAt } from '../../../lambdas/core/swap/record.ts'
import { aGroup, anInstance, memberOf, minutesAgo } from '../../builders/world.ts'

describe('releaseAction', () => {
  const partner = anInstance()
  const swapId = swapIdAt(minutesAgo(5))
  const replacement = anInstance({
    lifecycle: 'spot',
    tags: { [TAG_REPLACING_INSTANCE]: partner.id, [TAG_SWAP_ID]: swapId },
  })
  const group = aGroup([memberOf(partner), memberOf(replacement)])
  const pair = { spotInstanceId: replacement.id, onDemandInstanceId: partner.id }

  // Its never-served deadline counts from its swap's start once the pair is released (chaos seed 5342).
  it('carries the swap id the replacement bears, for the executor to keep on it', () => {
    const detail = (id: string) => (id === replacement.id ? replacement : partner)
    expect(releaseAction({ group, detail }, pair, 'owner resized')).toMatchObject({
      kind: 'release-pair',
      group: group.name,
      swapId,
    })
  })

  it('carries none for a replacement without one', () => {
    const bare = { ...replacement, tags: { [TAG_REPLACING_INSTANCE]: partner.id } }
    const action = releaseAction({ group, detail: () => bare }, pair, 'owner resized')
    expect(action).toMatchObject({ kind: 'release-pair' })
    expect(action).not.toHaveProperty('swapId', expect.anything())
  })
})
