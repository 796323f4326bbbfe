import { describe, expect, it } from 'vitest'
import {
  TAG_ECS_DRAINED,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_RELEASED_SWAP_ID,
  TAG_REPLACING_INSTANCE,
} from '../../../lambdas/core/constants.ts'
import { launchTags } from '../../../lambdas/core/plan/launch-tags.ts'
import { aGroup, anInstance, memberOf } from '../../builders/world.ts'

describe('launchTags', () => {
  it.each([
    ['the drain marker of a partner spotswap drained', TAG_ECS_DRAINED, 's1'],
    ['the released swap of a partner that was a replacement once', TAG_RELEASED_SWAP_ID, 's0'],
  ])(
    'copies the partner’s own tags but not %s (a marker only its own instance’s MAC covers)',
    (_, key, value) => {
      const partner = anInstance({ tags: { team: 'web', [key]: value } })
      const tags = launchTags(aGroup([memberOf(partner)]), partner, 'm5.large')
      expect(tags).toMatchObject({
        team: 'web',
        [TAG_LAUNCHED_FOR_GROUP]: 'web',
        [TAG_REPLACING_INSTANCE]: partner.id,
      })
      expect(tags[key]).toBeUndefined()
    },
  )
})
