/** What the port's read and write modules share: the world, one region, and the calling invocation. */
import type { GateOptions } from './api-gate.ts'
import type { Session } from './faults.ts'
import type { SimRegion } from './state.ts'
import type { World } from './world.ts'

export interface PortContext {
  readonly world: World
  readonly region: SimRegion
  readonly session: Session
}

/** One API request of `ctx.session`, through the region's gate. */
export const request = <T>(ctx: PortContext, operation: string, effect: () => T, options?: GateOptions): T =>
  ctx.region.gate.call(ctx.session, operation, effect, options)

/** The group an instance's cost (and API calls about it) belong to. */
export const groupOfId = (ctx: PortContext, id: string): string | undefined =>
  ctx.region.groupOf(id)?.name ?? ctx.region.instances.get(id)?.costGroup
