import { describe, expect, it } from 'vitest'
import { TAG_LAUNCH_TEMPLATE_ID, TAG_REPLACEMENT_ATTEMPT } from '../../../lambdas/core/constants.ts'
import { isUnverifiedLaunch, sortLaunches } from '../../../lambdas/core/group/provenance.ts'
import { planGroup } from '../../../lambdas/core/plan/planner.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { launches } from '../../builders/actions.ts'
import { aGroup, memberOf, minutesAgo, onDemandFleet, planInput, spotFor } from '../../builders/world.ts'

const withoutTemplateTag = (launch: Instance): Instance => {
  const { [TAG_LAUNCH_TEMPLATE_ID]: _none, ...tags } = launch.tags
  return { ...launch, tags }
}

const recording = (partner: Instance, attempt: string): Instance => ({
  ...partner,
  tags: { ...partner.tags, [TAG_REPLACEMENT_ATTEMPT]: attempt },
})

describe('isUnverifiedLaunch: spotswap’s launch in every fact but EC2’s template tag', () => {
  const [partner] = onDemandFleet(1) as [Instance]
  const group = aGroup([memberOf(partner)])
  const judge = (launch: Instance, recorded: Instance) => {
    const { untrusted } = sortLaunches([launch], group, (id) => (id === recorded.id ? recorded : undefined))
    return untrusted
  }

  it('is a launch its partner records, without the group’s template tag', () => {
    const launch = withoutTemplateTag(spotFor(partner))
    const [refused] = judge(launch, recording(partner, `1:${launch.id}@${minutesAgo(11).toISOString()}`))
    expect(refused?.code).toBe('foreign-template')
    expect(refused && isUnverifiedLaunch(refused)).toBe(true)
  })

  it('is a launch made since an attempt that has no outcome yet', () => {
    const launch = withoutTemplateTag(spotFor(partner))
    const [refused] = judge(launch, recording(partner, `2@${minutesAgo(11).toISOString()}`))
    expect(refused && isUnverifiedLaunch(refused)).toBe(true)
  })

  it('is not one its partner records no launch for, nor an on-demand instance', () => {
    const launch = withoutTemplateTag(spotFor(partner))
    const other = recording(partner, `1:i-0fffffffffffffff0@${minutesAgo(11).toISOString()}`)
    expect(judge(launch, other).map((r) => [r.code, isUnverifiedLaunch(r)])).toEqual([
      ['outcome-not-recorded', false],
    ])
    const onDemand = { ...launch, lifecycle: 'on-demand' as const }
    const recorded = recording(partner, `1:${launch.id}@${minutesAgo(11).toISOString()}`)
    expect(judge(onDemand, recorded).map((r) => isUnverifiedLaunch(r))).toEqual([false])
  })
})

describe('planGroup after an attempt moved on past a token EC2 refused', () => {
  it('counts a launch of the earlier attempt, made since it began, as the partner’s: no second launch', () => {
    const fleet = onDemandFleet(4)
    const partner = fleet[0] as Instance
    // Attempt 1's request was accepted but unrecorded; attempt 2 was recorded with attempt 1's start.
    const moved = recording(partner, `2@${minutesAgo(20).toISOString()}`)
    const earlier = spotFor(partner, { launchTime: minutesAgo(15) })
    const plan = planGroup(planInput([moved, ...fleet.slice(1)], { launched: [earlier] }))
    expect(launches(plan.actions).map((a) => a.replacing)).not.toContain(partner.id)
    // Its replacement is that launch: swapped in now, not launched again.
    expect(plan.onDemand.find((s) => s.instanceId === partner.id)?.code).toBe('swapping')
  })
})
