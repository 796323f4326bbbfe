/**
 * The drain swap (drain.ts) as the plan asks about it: what a group's view tells the drain steps, and
 * which protected partner a swap may still take (the one ECS protects and spotswap drains).
 */
import { ECS_DRAIN_DEADLINE_SECONDS, TAG_REPLACING_INSTANCE } from '../constants.ts'
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

/**
 * Why a partner's protection cannot be told ECS's or the owner's this run, if so: protected from scale-in
 * only, in a group tagged for ECS whose capacity providers or cluster could not be read, or whose
 * container instance is ACTIVE with tasks that could not be read. A drain swap may yet take it
 * (isDrainable): its replacement waits for a run that reads them, as a drain pair's does
 * (`ecs-tasks-unread`), instead of being terminated as kept and launched again.
 */
export const ecsProtectionUnread =
  (view: GroupView) =>
  (id: string): string | undefined => {
    const ecs = view.input.ecs
    if (ecs === undefined || ecs.kind === 'not-managed') return undefined
    if (view.input.terminationProtected.has(id) || !isScaleInProtected(view, id)) return undefined
    if (ecs.kind === 'unreadable') return `the capacity providers could not be read (${ecs.error})`
    if (ecs.cluster.kind === 'unreadable') return `its cluster could not be read (${ecs.cluster.error})`
    if (ecs.cluster.kind !== 'read') return undefined
    const instance = ecs.cluster.containerInstances.get(id)
    const tasks = ecs.cluster.tasks?.get(id)
    return instance?.status === 'ACTIVE' && tasks?.kind === 'unreadable'
      ? `its tasks could not be read (${tasks.error})`
      : undefined
  }

/**
 * The drain step of an open swap's pair (core/swap/finish-pairs.ts asks it first). A partner whose
 * protection may be ECS's but could not be judged this run (ecsProtectionUnread) waits as one whose tasks
 * were not read, up to the drain deadline: its attached replacement is not retired for a failed read.
 */
export const ecsDrainOf =
  (view: GroupView) =>
  (pair: SwapPair, keepsMinimum: boolean, deadlineMs: number): DrainStep | undefined => {
    const step =
      view.input.ecs?.kind === 'managed'
        ? drainStep(drainInput(view), pair, keepsMinimum, deadlineMs)
        : undefined
    if (step !== undefined || !keepsMinimum) return step
    const unread = ecsProtectionUnread(view)(pair.onDemandInstanceId)
    return unread !== undefined && view.input.now.getTime() < deadlineMs + ECS_DRAIN_DEADLINE_SECONDS * 1000
      ? { situation: 'ecs-tasks-unread', detail: `${pair.onDemandInstanceId}: ${unread}` }
      : undefined
  }

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
