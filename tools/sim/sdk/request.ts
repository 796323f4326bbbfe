/**
 * What the simulated SDK clients share: the world, one region and the calling invocation, and the one way
 * a request is answered: through the region's API gate (counting, simulated time, EC2 throttling with the
 * SDK's retries, injected faults and crashes), settling like a network call so concurrent callers
 * interleave as they do with the SDK. Writes are also recorded with what they touched (touches.ts).
 */
import type { GateOptions } from '../api-gate.ts'
import type { Session } from '../faults.ts'
import type { SimRegion } from '../state.ts'
import { recordFailure, recordGroup, recordInstances } from '../touches.ts'
import type { World } from '../world.ts'
import type { Listings } from './paging.ts'

export interface SimApiContext {
  readonly world: World
  readonly region: SimRegion
  readonly session: Session
  readonly listings: Listings
}

/** One request of `ctx.session` named `service:Operation`, answered by `effect` once the gate lets it through. */
export const answer = async <T>(
  ctx: SimApiContext,
  operation: string,
  effect: () => T,
  /** As a function when working them out is itself simulator work (a lookup), so it is metered. */
  options?: GateOptions | (() => GateOptions),
): Promise<T> => {
  await Promise.resolve()
  return ctx.region.gate.call(ctx.session, operation, effect, options)
}

/** What a write request names, for the records: a group, instances, or both. */
export interface Named {
  readonly group?: string | undefined
  readonly instances?: readonly string[]
  /** The tag keys a CreateTags or DeleteTags request writes (write-invariants.ts excuses ECS drain markers). */
  readonly tagKeys?: readonly string[]
}

/** One write request, recorded with what it names and, if it fails, how (write-invariants.ts reads both). */
export const write = async <T>(
  ctx: SimApiContext,
  operation: string,
  named: Named,
  effect: () => T,
  options: GateOptions | (() => GateOptions) = {},
): Promise<T> => {
  await Promise.resolve()
  const { session, region } = ctx
  // The records are the simulator's work: metered with the request, as one part.
  return region.gate.metered(() => {
    if (named.group !== undefined) recordGroup(session, region, operation, named.group)
    recordInstances(session, region, operation, named.instances ?? [], named.tagKeys)
    const crashedBefore = session.crashed
    // A write that takes effect once the run's message may be another run's too (lease-invariant.ts).
    const hiddenUntil = session.messageHiddenUntilMs
    const effectHeld =
      hiddenUntil === undefined
        ? effect
        : () => {
            if (ctx.world.clock.now >= hiddenUntil()) {
              session.writesPastLease ??= []
              session.writesPastLease.push({ operation, group: named.group })
            }
            return effect()
          }
    try {
      return region.gate.call(session, operation, effectHeld, options)
    } catch (error) {
      if (!crashedBefore && !session.crashed)
        recordFailure(session, operation, named.group, named.instances ?? [], error)
      throw error
    }
  })
}

/** The group an instance's cost (and API calls about it) belong to. */
export const groupOfId = (ctx: SimApiContext, id: string): string | undefined =>
  ctx.region.groupOf(id)?.name ?? ctx.region.instances.get(id)?.costGroup
