import { describe, expect, it } from 'vitest'
import { TAG_LAUNCHED_FOR_GROUP, TAG_REPLACEMENT_ATTEMPT } from '../../../lambdas/core/constants.ts'
import { attemptTag } from '../../../lambdas/core/plan/attempts.ts'
import { judgeStrays, strayPartnerIds, strayTerminations } from '../../../lambdas/core/region/strays.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { aGroup, anInstance, minutesAgo, spotFor } from '../../builders/world.ts'

/** The partner as it stands once the launch's outcome was recorded on it. */
const recording = (partner: Instance, launch: Instance): Instance => ({
  ...partner,
  tags: {
    [TAG_REPLACEMENT_ATTEMPT]: attemptTag(
      { attempt: 1, since: minutesAgo(10).toISOString() },
      { instanceId: launch.id, launchTemplateId: undefined },
    ),
  },
})

describe('judgeStrays', () => {
  const partner = anInstance()
  const launch = spotFor(partner)
  const groups = new Map([['web', aGroup([])]])

  it('takes a spot launch its partner records, for a group opted out, as spotswap’s', () => {
    const partners = new Map([[partner.id, recording(partner, launch)]])
    expect(judgeStrays([launch], groups, partners)).toEqual({ ours: [launch], untrusted: [] })
  })

  it('reads the partners the strays name', () => {
    expect(strayPartnerIds([launch, anInstance()])).toEqual([partner.id])
  })

  it.each([
    ['an on-demand instance that carries the tag', anInstance({ tags: { [TAG_LAUNCHED_FOR_GROUP]: 'web' } })],
    ['a launch its partner records no launch of', spotFor(partner)],
  ])('leaves alone, and reports against the group it names, %s', (_, suspect) => {
    const verdicts = judgeStrays([suspect], groups, new Map([[partner.id, recording(partner, launch)]]))
    expect(verdicts.ours).toEqual([])
    expect(verdicts.untrusted).toEqual([
      { group: 'web', instance: expect.objectContaining({ instanceId: suspect.id }) },
    ])
  })

  it('with its partner gone from EC2’s view, lets the template speak: the opted-out group’s, not a gone one’s', () => {
    expect(judgeStrays([launch], groups, new Map()).ours).toEqual([launch])
    expect(judgeStrays([launch], undefined, new Map()).ours).toEqual([])
  })
})

describe('strayTerminations', () => {
  const inNoGroup = spotFor(anInstance())
  const attached = spotFor(anInstance())

  it('terminates only the strays Auto Scaling says are in no group, saying so', () => {
    expect(strayTerminations([inNoGroup, attached], new Map([[attached.id, 'web']]))).toEqual([
      {
        kind: 'terminate-spot',
        group: 'web',
        instanceId: inNoGroup.id,
        inNoGroup: true,
        reason: 'group-gone-or-unmanaged: launched for a group that no longer exists or is no longer managed',
      },
    ])
  })
})
