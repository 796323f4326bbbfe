/**
 * How much longer than any other a swap of a group ECS manages may stay open: its pairs wait for ECS to
 * drain the partner until ECS_DRAIN_DEADLINE_SECONDS after the swap's health deadline (drain.ts), so a
 * swap still within that time is not overdue. A group whose providers could not be read may be one
 * spotswap drains in: it gets the same time (the overdue count only waits, nothing is written).
 */
import { ECS_DRAIN_DEADLINE_SECONDS } from '../constants.ts'
import type { EcsManagement } from './capacity-provider.ts'

export const drainAllowanceSeconds = (ecs: EcsManagement | undefined): number =>
  ecs === undefined || ecs.kind === 'not-managed' ? 0 : ECS_DRAIN_DEADLINE_SECONDS
