/**
 * A group its owner asked back on-demand (`spotswap revert`) may stand one unit above the owner's desired
 * capacity while a spot member is left: each step raises by one through Auto Scaling before a spot member
 * leaves with a decrement (core/revert/step.ts). Read from the world (the owner's request and the members'
 * lifecycles), never from spotswap's marker; once no spot member is left, the sizes are the owner's again.
 */
import { isActiveMember, type SimGroup, type SimRegion } from './state.ts'

export const revertAllowance = (region: SimRegion, group: SimGroup): number[] => {
  if (group.revertRequestedMs === undefined) return []
  const spotLeft = [...group.members].some(
    ([id, member]) => isActiveMember(member) && region.instances.get(id)?.lifecycle === 'spot',
  )
  return spotLeft ? [Number.POSITIVE_INFINITY] : []
}
