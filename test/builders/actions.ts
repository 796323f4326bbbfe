/** A plan's actions of one kind, typed, for assertions. */
import type { Action, LaunchSpotAction, SwapAction } from '../../lambdas/core/plan/actions.ts'

export const launches = (actions: readonly Action[]): LaunchSpotAction[] =>
  actions.filter((a): a is LaunchSpotAction => a.kind === 'launch-spot')

export const swaps = (actions: readonly Action[]): SwapAction[] =>
  actions.filter((a): a is SwapAction => a.kind === 'swap')
