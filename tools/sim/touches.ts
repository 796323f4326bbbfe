/**
 * What each invocation's writes touched, recorded by the simulated SDK clients (sdk/request.ts) as the
 * requests are made, with the facts of that moment: whether the instance was protected, which group it
 * belonged to and that group's tags, whether AWS applied a retirement, which replacements of the same
 * instance were alive when a new one launched. The invariant checks (invariants.ts) judge the records once the
 * invocation is over; facts are captured here because the world moves on (members leave, tags change).
 */

import { isNotFound, isTransient } from '../../lambdas/aws/errors.ts'
import { DOOMED_SWAP_DEADLINE_SECONDS, TAG_REPLACING_INSTANCE } from '../../lambdas/core/constants.ts'
import { INTERRUPTION_NOTICE_SECONDS } from './constants.ts'
import { ecsDrainer } from './ecs-touches.ts'
import type { Session } from './faults.ts'
import { describeServing, isServing } from './load-balancers.ts'
import { isActiveMember, isRunningOrPending, type SimRegion } from './state.ts'
import { warmPoolOwner } from './warm-pool.ts'

export type WriteRecord =
  /** A request naming a group (sizes, tags, attach, detach, a launch for it). */
  | {
      readonly kind: 'group'
      readonly operation: string
      readonly group: string
      /** The group's tags when the request was made (the port replaces the object on every change). */
      readonly tags: Readonly<Record<string, string>>
    }
  /** A request naming an instance. */
  | {
      readonly kind: 'instance'
      readonly operation: string
      readonly instanceId: string
      /** The group it was a member of, and that group's tags, when the request was made. */
      readonly group: string | undefined
      readonly tags: Readonly<Record<string, string>> | undefined
      /** Someone else's instance (forged launch tags, or a member its owner detached). */
      readonly ownerKeeps?: boolean
      readonly protectedFromScaleIn: boolean
      readonly terminationProtected: boolean
      /** EC2 had given it the two-minute interruption warning: it goes whatever anyone does. */
      readonly warned: boolean
      /** The group whose warm pool held it: such an instance is never spotswap's to touch. */
      readonly warmPoolOf: string | undefined
      readonly actor: Session['actor']
      /** The tag keys it writes, for CreateTags and DeleteTags. */
      readonly tagKeys?: readonly string[]
      /** Its scale-in protection is ECS's, and who drains it: spotswap or ECS's hook (ecs-touches.ts). */
      readonly ecsDrainer?: 'drain' | 'managed-draining'
    }
  /** AWS applied a request that takes an on-demand instance out of service. */
  | {
      readonly kind: 'retire'
      readonly operation: string
      readonly instanceId: string
      readonly group: string | undefined
    }
  /**
   * A replacer run took `instanceId` out of its group while replacements of it that spotswap attached
   * did not serve yet (`replacements`: each with why), or (`unwarned`) took a spot member out without a
   * decrement, as it releases a member EC2 interrupts, though EC2 never warned it.
   */
  | {
      readonly kind: 'retired-before-serving'
      readonly operation: string
      readonly instanceId: string
      readonly group: string
      readonly replacements: readonly string[]
      readonly unwarned?: true
    }
  /**
   * AWS applied a retirement with a decrement (DetachInstances, TerminateInstanceInAutoScalingGroup) of a
   * member of `group`, whose tags are those of the moment of the request (forged-marker-invariant.ts).
   */
  | {
      readonly kind: 'decrement'
      readonly operation: string
      readonly instanceId: string
      readonly group: string
      readonly tags: Readonly<Record<string, string>>
    }
  /** CreateFleet started a new spot instance replacing `partner`; `alongside` describes replacements already alive. */
  | {
      readonly kind: 'launch'
      readonly instanceId: string
      readonly group: string
      readonly partner: string | undefined
      readonly alongside: readonly string[]
    }
  /**
   * A write request failed (after the SDK's retries): `transient` for server errors and throttling, the
   * failures a later run may not see; `notFound` for a missing resource, which the engine reads as done.
   */
  | {
      readonly kind: 'failed'
      readonly operation: string
      readonly group: string | undefined
      readonly instanceIds: readonly string[]
      readonly transient: boolean
      readonly notFound: boolean
    }

const records = new WeakMap<Session, WriteRecord[]>()

const record = (session: Session, entry: WriteRecord): void => {
  let list = records.get(session)
  if (list === undefined) {
    list = []
    records.set(session, list)
  }
  list.push(entry)
}

/** The records of `session`, removed from the store. */
export const takeWrites = (session: Session): WriteRecord[] => {
  const list = records.get(session) ?? []
  records.delete(session)
  return list
}

/**
 * A request of `session` names these instances. Requests of a process that already died are not
 * made at all, so they are not recorded.
 */
export const recordInstances = (
  session: Session,
  region: SimRegion,
  operation: string,
  ids: readonly string[],
  tagKeys?: readonly string[],
): void => {
  if (session.crashed) return
  for (const instanceId of ids) {
    const group = region.groupOf(instanceId)
    const drainer = ecsDrainer(region, instanceId)
    record(session, {
      kind: 'instance',
      operation,
      instanceId,
      group: group?.name,
      tags: group?.tags,
      protectedFromScaleIn: group?.members.get(instanceId)?.protectedFromScaleIn ?? false,
      terminationProtected: region.instances.get(instanceId)?.terminationProtected ?? false,
      ownerKeeps: region.instances.get(instanceId)?.ownerKeeps === true,
      warned: region.instances.get(instanceId)?.interruptAtMs !== undefined,
      warmPoolOf: warmPoolOwner(region, instanceId)?.name,
      actor: session.actor,
      ...(tagKeys === undefined ? {} : { tagKeys }),
      ...(drainer === undefined ? {} : { ecsDrainer: drainer }),
    })
  }
}

export const recordGroup = (session: Session, region: SimRegion, operation: string, name: string): void => {
  const group = region.groups.get(name)
  if (session.crashed || group === undefined) return
  record(session, { kind: 'group', operation, group: name, tags: group.tags })
}

/** AWS applied `operation` to these instances: the on-demand ones are retired. */
export const recordRetired = (
  session: Session,
  region: SimRegion,
  operation: string,
  ids: readonly string[],
): void => {
  for (const instanceId of ids) {
    const instance = region.instances.get(instanceId)
    if (instance?.lifecycle === 'on-demand')
      record(session, { kind: 'retire', operation, instanceId, group: instance.costGroup })
  }
}

/**
 * Replacements of `partner` spotswap attached to its group that do not serve now (InService and healthy
 * in every load balancer of the group), each described with why. None when EC2 takes the partner anyway:
 * EC2 warned it (the simulator's own interruption, never a tag anyone may write) and its swap's deadline
 * has passed.
 */
export const unservedReplacements = (region: SimRegion, partner: string, nowMs: number): string[] => {
  const group = region.groupOf(partner)
  const interruptAtMs = region.instances.get(partner)?.interruptAtMs
  const warnedAt =
    interruptAtMs === undefined ? Number.NaN : interruptAtMs - INTERRUPTION_NOTICE_SECONDS * 1000
  if (group === undefined || nowMs >= warnedAt + DOOMED_SWAP_DEADLINE_SECONDS * 1000) return []
  const unserved: string[] = []
  for (const id of group.members.keys()) {
    const instance = region.instances.get(id)
    if (instance?.origin !== 'spotswap' || instance.tags[TAG_REPLACING_INSTANCE] !== partner) continue
    // A replacement already leaving its group (interrupted, retired) replaces nothing any more.
    const member = group.members.get(id)
    if (member === undefined || !isActiveMember(member)) continue
    if (!isServing(group, id, nowMs)) unserved.push(`${id} (${describeServing(group, id, nowMs)})`)
  }
  return unserved
}

/**
 * A replacer run is about to take these instances out of their group: the facts invariant 7 judges,
 * taken before the request changes them. Call `commit` once AWS applied the request.
 */
export const prepareRetirements = (
  session: Session,
  region: SimRegion,
  operation: string,
  ids: readonly string[],
  nowMs: number,
  decrement: boolean,
): { commit: () => void } => {
  const decrements: WriteRecord[] = []
  for (const instanceId of decrement ? ids : []) {
    const group = region.groupOf(instanceId)
    if (group !== undefined)
      decrements.push({ kind: 'decrement', operation, instanceId, group: group.name, tags: group.tags })
  }
  const commitDecrements = () => {
    for (const entry of decrements) record(session, entry)
  }
  if (session.actor !== 'replacer') return { commit: commitDecrements }
  const entries: WriteRecord[] = ids.flatMap((instanceId) => {
    const replacements = unservedReplacements(region, instanceId, nowMs)
    const simGroup = region.groupOf(instanceId)
    const group = simGroup?.name
    if (simGroup === undefined || group === undefined) return []
    const instance = region.instances.get(instanceId)
    // The replacer takes a serving spot member out without a decrement only to release one EC2 interrupts;
    // one that does not serve (a replacement that never turned healthy) takes no serving capacity with it.
    if (
      !decrement &&
      instance?.lifecycle === 'spot' &&
      instance.interruptAtMs === undefined &&
      isServing(simGroup, instanceId, nowMs)
    )
      return [
        {
          kind: 'retired-before-serving' as const,
          operation,
          instanceId,
          group,
          replacements,
          unwarned: true as const,
        },
      ]
    return replacements.length === 0
      ? []
      : [{ kind: 'retired-before-serving' as const, operation, instanceId, group, replacements }]
  })
  return {
    commit: () => {
      commitDecrements()
      for (const entry of entries) record(session, entry)
    },
  }
}

/** Replacements of `partner` other than `exceptId` still alive: running or pending, not warned, not leaving a group. */
const liveReplacements = (region: SimRegion, partner: string, exceptId: string): string[] =>
  [...region.instances.values()].flatMap((i) => {
    if (i.id === exceptId || i.origin !== 'spotswap' || i.tags[TAG_REPLACING_INSTANCE] !== partner) return []
    if (!isRunningOrPending(i) || i.interruptAtMs !== undefined) return []
    // A member its owner detached is theirs now (issue 14): it replaces nothing of spotswap's any more.
    if (i.ownerKeeps === true) return []
    const group = region.groupOf(i.id)
    const state = group?.members.get(i.id)?.lifecycleState
    if (state === undefined) return [`${i.id} (${i.state}, not attached)`]
    return state === 'InService' || state.startsWith('Pending')
      ? [`${i.id} (${state} in ${group?.name})`]
      : []
  })

/** CreateFleet launched `instanceId` for `group`. */
export const recordLaunch = (
  session: Session,
  region: SimRegion,
  group: string,
  instanceId: string,
): void => {
  const partner = region.instances.get(instanceId)?.tags[TAG_REPLACING_INSTANCE]
  const alongside = partner === undefined ? [] : liveReplacements(region, partner, instanceId)
  record(session, { kind: 'launch', instanceId, group, partner, alongside })
}

export const recordFailure = (
  session: Session,
  operation: string,
  group: string | undefined,
  instanceIds: readonly string[],
  error: unknown,
): void =>
  record(session, {
    kind: 'failed',
    operation,
    group,
    instanceIds,
    transient: isTransient(error),
    notFound: isNotFound(error),
  })
