import { describe, expect, it } from 'vitest'
import {
  TAG_INTERRUPTION_WARNED,
  TAG_REBALANCE_AT_RISK,
  TAG_REPLACEMENT_ATTEMPT,
} from '../../../lambdas/core/constants.ts'
import { memberRoles } from '../../../lambdas/core/plan/member-roles.ts'
import type { Instance } from '../../../lambdas/core/types.ts'
import { aGroup, anInstance, memberOf, NOW, onDemandFleet, spotFor } from '../../builders/world.ts'

const rolesOf = (
  instances: readonly Instance[],
  leaving: readonly Instance[] = [],
  confirmed: ReadonlySet<string> = new Set(),
) =>
  memberRoles(
    aGroup([
      ...instances.map((i) => memberOf(i)),
      ...leaving.map((i) => memberOf(i, { lifecycleState: 'Terminating' })),
    ]),
    new Map([...instances, ...leaving].map((i) => [i.id, i])),
    confirmed,
  )

describe('memberRoles', () => {
  it('sorts the members in service into on-demand and spot, and the spot ones by what they need', () => {
    const [onDemand] = onDemandFleet(1) as [Instance]
    const spot = (tags: Record<string, string>) => anInstance({ lifecycle: 'spot', tags })
    const doomed = spot({ [TAG_INTERRUPTION_WARNED]: NOW.toISOString() })
    const atRisk = spot({ [TAG_REBALANCE_AT_RISK]: NOW.toISOString() })
    const moving = spot({ [TAG_REPLACEMENT_ATTEMPT]: '1@2022-05-31T22:00:00.000Z' })
    const settled = spot({})
    const roles = rolesOf([onDemand, doomed, atRisk, moving, settled], [], new Set([doomed.id]))
    expect(roles.onDemand.map((m) => m.instanceId)).toEqual([onDemand.id])
    expect(roles.spot).toHaveLength(4)
    expect([...roles.doomedIds]).toEqual([doomed.id])
    expect(roles.atRisk.map((m) => m.instanceId)).toEqual([doomed.id, atRisk.id])
    expect([...roles.movingIds]).toEqual([moving.id])
  })

  it('makes a member tagged as warned doomed only when EC2 confirms its interruption', () => {
    const warned = (at: string) => anInstance({ lifecycle: 'spot', tags: { [TAG_INTERRUPTION_WARNED]: at } })
    const confirmed = warned(NOW.toISOString())
    const forgedOld = warned('2020-01-01T00:00:00.000Z')
    const forgedNow = warned(NOW.toISOString())
    const roles = rolesOf([confirmed, forgedOld, forgedNow], [], new Set([confirmed.id]))
    expect([...roles.doomedIds]).toEqual([confirmed.id])
    expect(roles.atRisk.map((m) => m.instanceId)).toEqual([confirmed.id])
    expect(roles.unconfirmed.map((m) => m.instanceId)).toEqual([forgedOld.id, forgedNow.id])
    // Not asked (no status read): nobody is doomed.
    expect(rolesOf([confirmed, forgedOld]).doomed).toEqual([])
  })

  it('counts replacements attached beside a partner still in service, and only those', () => {
    const [kept, leaving] = onDemandFleet(2) as [Instance, Instance]
    const besideKept = spotFor(kept)
    const besideLeaving = spotFor(leaving)
    expect(rolesOf([kept, besideKept, besideLeaving], [leaving]).besidePartner).toBe(1)
  })

  it('leaves out members leaving the group and members whose details were not seen', () => {
    const [member, leaving] = onDemandFleet(2) as [Instance, Instance]
    const roles = rolesOf([member], [leaving])
    expect(roles.inService.map((m) => m.instanceId)).toEqual([member.id])
    expect(memberRoles(aGroup([memberOf(member)]), new Map()).onDemand).toEqual([])
  })
})
