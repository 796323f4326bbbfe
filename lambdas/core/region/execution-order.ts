/**
 * In which order a group's actions run, and which ones a failure earlier in the same run stops. Pure:
 * the executor (replacer/execute.ts) asks before each action, with the kinds that failed so far.
 */
import type { Action } from '../plan/actions.ts'

const ORDER: Record<Action['kind'], number> = {
  // A container instance spotswap drained set ACTIVE again before anything else; a drain with the pairs.
  'ecs-undrain': 1,
  'ecs-drain': 2,
  // Give-backs follow the pairs' retirements (a stable sort keeps the order the records were numbered in).
  'complete-swap': 2,
  'release-pair': 2,
  'give-back': 2,
  'close-swap': 3,
  // After a swap's close; a raise is only planned in a group with nothing else to do.
  maintenance: 3,
  // A revert steps only in a group with nothing else to do.
  revert: 3,
  'terminate-spot': 4,
  swap: 5,
  'launch-spot': 6,
  'release-doomed': 7,
  'settle-members': 8,
}

/**
 * Actions that must not run once one of these kinds failed in the same group: each step down is
 * announced in the record as the one after the previous step, so the steps stop at the first failure,
 * and the record is dropped only once every step is done.
 */
const STEPS_DOWN: readonly Action['kind'][] = ['complete-swap', 'give-back']
const REQUIRES: Partial<Record<Action['kind'], readonly Action['kind'][]>> = {
  'complete-swap': STEPS_DOWN,
  'release-pair': STEPS_DOWN,
  'give-back': STEPS_DOWN,
  'close-swap': STEPS_DOWN,
  // A swap that starts in the run that closed the last one is sized against the closed one's outcome.
  swap: [...STEPS_DOWN, 'close-swap'],
}

const byOrder = (a: Action, b: Action): number => ORDER[a.kind] - ORDER[b.kind]

/**
 * The actions in the order they run; actions of one kind keep the plan's order. Most plans are in that
 * order already (launches alone, in a large first run): they are copied without a sort.
 */
export const executionOrder = (actions: readonly Action[]): Action[] => {
  const ordered = [...actions]
  for (let index = 1; index < ordered.length; index++)
    if (byOrder(ordered[index - 1] as Action, ordered[index] as Action) > 0) return ordered.sort(byOrder)
  return ordered
}

/** The failed kind that keeps an action of this kind from running, if any. */
export const blockedBy = (
  kind: Action['kind'],
  failedKinds: ReadonlySet<Action['kind']>,
): Action['kind'] | undefined => REQUIRES[kind]?.find((failed) => failedKinds.has(failed))

/**
 * Kinds a region run starts only once every group has run its other actions (the kinds last in ORDER, so
 * each group's actions keep their order). Launches are most of a converging region's writes: a crash among
 * them (any request may be a Lambda's last) then cannot cost another group the attach, retirement or
 * cleanup that settles an earlier run's launch.
 */
const LAST_WAVE: ReadonlySet<Action['kind']> = new Set(['launch-spot', 'release-doomed', 'settle-members'])

/** A group's actions in two waves: what settles earlier runs' work, then what starts new work. */
export const executionWaves = (
  actions: readonly Action[],
): { readonly settling: Action[]; readonly starting: Action[] } => ({
  settling: actions.filter((a) => !LAST_WAVE.has(a.kind)),
  starting: actions.filter((a) => LAST_WAVE.has(a.kind)),
})
