/**
 * The drain swap (drain.ts) as the plan asks about it: what a group's view tells the drain steps, and
 * which protected partner a swap may still take (the one ECS protects and spotswap drains).
 */
import { TAG_REPLACING_INSTANCE } from '../constants.ts'
import type { EcsStateAction, SwapPair } from '../plan/actions.ts'
import type { GroupView } from '../plan/group-view.ts'
import { readSwapRecord } from '../swap/record.ts'
import { type DrainInput, type DrainStep, drainStep, isDrainable, undrainLeftovers } from './drain.ts'

const isScaleInProtected = (view: GroupView, id: string): boolean =>
  view.group.members.some((m) => m.instanceId === id && m.protectedFromScaleIn)

export const drainInput = (view: GroupView): DrainInput => {
  const onGroup = readSwapRecord(view.group.tags)
  return {
    group: view.group.name,
    ecs: view.input.ecs,
    now: view.input.now,
    swapId: onGroup.kind === 'read' ? onGroup.record.id : undefined,
    detail: view.detail,
    scaleInProtected(id) {
      return isScaleInProtected(view, id)
    },
    terminationProtected(id) {
      return view.input.terminationProtected.has(id)
    },
  }
}

/**
 * Whether a member's protection is ECS's alone, so a released pair may still lose its pair tags on it: a
 * group ECS manages with managed termination protection, the member protected from scale-in only (never
 * against API termination, always an owner's) and registered in the provider's cluster (ACTIVE or
 * DRAINING). ECS sets that protection while tasks run there
 * (https://docs.aws.amazon.com/AmazonECS/latest/developerguide/managed-termination-protection.html): it
 * says nothing of the owner, so a tag write is no harm to them. Nothing else is ever written on it.
 */
export const protectedByEcs =
  (view: GroupView) =>
  (id: string): boolean => {
    const ecs = view.input.ecs
    if (ecs?.kind !== 'managed' || ecs.cluster.kind !== 'read') return false
    if (view.input.terminationProtected.has(id) || !isScaleInProtected(view, id)) return false
    const status = ecs.cluster.containerInstances.get(id)?.status
    return status === 'ACTIVE' || status === 'DRAINING'
  }

/** The drain step of an open swap's pair (core/swap/finish-pairs.ts asks it first). */
export const ecsDrainOf =
  (view: GroupView) =>
  (pair: SwapPair, keepsMinimum: boolean, deadlineMs: number): DrainStep | undefined =>
    view.input.ecs?.kind === 'managed'
      ? drainStep(drainInput(view), pair, keepsMinimum, deadlineMs)
      : undefined

/**
 * Whether a partner is kept from a swap by its protection: any protected one, but a member ECS protects
 * that a drain swap drains (protected from scale-in only, its container instance ACTIVE).
 */
export const keptFromSwap =
  (view: GroupView) =>
  (id: string): boolean => {
    if (!view.isProtected(id)) return false
    if (view.input.terminationProtected.has(id)) return true
    const member = view.group.members.find((m) => m.instanceId === id)
    return member === undefined || !isDrainable(view.input.ecs, member)
  }

/**
 * Members spotswap drained that no open swap's pair holds any more: set ACTIVE again (drain.ts).
 * `replacements` are the open swap's half-done replacements: only their partners are still to be retired.
 * A partner named by a replacement the closed swap could not release (its owner protects it, so its pair
 * tags stay) is held by no swap: left DRAINING, ECS would place no task on it, and nothing would retire it.
 */
export const leftoverUndrains = (view: GroupView, replacements: readonly string[]): EcsStateAction[] => {
  if (view.input.ecs?.kind !== 'managed') return []
  const partners = new Set<string>()
  for (const id of replacements) {
    const partner = view.detail(id)?.tags[TAG_REPLACING_INSTANCE]
    if (partner !== undefined) partners.add(partner)
  }
  return undrainLeftovers(drainInput(view), view.group.members, partners)
}
