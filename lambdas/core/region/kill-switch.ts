/**
 * The kill switch: one value an operator sets without a redeploy (an SSM parameter, read once per run by
 * aws/kill-switch.ts), which stops spotswap starting anything new.
 *
 *   off   everything runs.
 *   on    nothing new starts: no launch, no swap (attach), no member leaves for an interruption or a
 *         replacement that never served, and the interruption Lambda does nothing. What earlier runs left
 *         is still finished, because stopping it costs money and capacity: stray and unneeded spot launches
 *         are terminated (so are launches ready to be attached: they would bill until the switch is off),
 *         open swaps close (their announced steps down give back the raised desired capacity, MaxSize is
 *         put back), an open replacement ahead of a scheduled event finishes (its member retires once its
 *         successor serves, or the raised unit is given back) but none is started, and settled members
 *         lose their launch tags.
 *   hard  no write at all, cleanup included: runs only read, plan and report.
 *
 * A value that is set but cannot be read, or is none of these, counts as `on` (fail closed on new work,
 * while cleanup goes on): an operator who reached for the switch must not find spotswap launching because
 * a permission or a typo hid it. Unset (no parameter named: the command line, the simulator) is `off`.
 */
import type { Action, GroupPlan } from '../plan/actions.ts'

export type KillSwitchMode = 'off' | 'on' | 'hard'

export interface KillSwitch {
  readonly mode: KillSwitchMode
  /** Why the mode is not the value as written: the read failed or the value is not one of the modes. */
  readonly problem?: string
}

export const KILL_SWITCH_OFF: KillSwitch = { mode: 'off' }

const MODES: readonly KillSwitchMode[] = ['off', 'on', 'hard']

/** The parameter's value, case and surrounding blanks ignored; anything else is `on`, with the reason. */
export const parseKillSwitch = (raw: string): KillSwitch => {
  const value = raw.trim().toLowerCase()
  const mode = MODES.find((m) => m === value)
  return mode !== undefined
    ? { mode }
    : {
        mode: 'on',
        problem: `kill switch value ${JSON.stringify(raw.slice(0, 40))} is not off, on or hard: treated as on`,
      }
}

/** A read of the parameter that failed: new work stops, cleanup goes on. */
export const unreadableKillSwitch = (error: string): KillSwitch => ({
  mode: 'on',
  problem: `kill switch unreadable (${error}): treated as on`,
})

/**
 * What finishes earlier runs' work and what costs nothing to keep doing: open swaps' steps down and close,
 * the release of a pair, terminating launches no group needs, removing launch tags of settled members.
 */
const CLEANUP: ReadonlySet<Action['kind']> = new Set([
  'complete-swap',
  'give-back',
  'release-pair',
  'close-swap',
  'terminate-spot',
  'settle-members',
  // A container instance spotswap drained, set ACTIVE again: it restores capacity.
  'ecs-undrain',
])

/**
 * A replacement ahead of a scheduled event and a revert each raise desired capacity by one: their later
 * steps (retire, close, marks) give that unit back, so they are cleanup; their `raise` starts new work.
 */
const isCleanup = (action: Action): boolean =>
  action.kind === 'maintenance' || action.kind === 'revert'
    ? action.step !== 'raise'
    : CLEANUP.has(action.kind)

/** Whether the switch lets this action run. */
export const allowedBy = (mode: KillSwitchMode, action: Action): boolean =>
  mode === 'off' || (mode === 'on' && isCleanup(action))

/** Whether the switch lets stray spot instances (launches of no managed group) be terminated. */
export const cleansStrays = (mode: KillSwitchMode): boolean => mode !== 'hard'

/**
 * A held swap's replacements are launches that will never be attached while the switch stays: they are
 * terminated like any launch a plan drops, so the switch leaves nothing of spotswap's billing.
 */
const dropReplacements = (held: readonly Action[]): Action[] =>
  held.flatMap((action) =>
    action.kind === 'swap'
      ? action.pairs.map(
          (pair): Action => ({
            kind: 'terminate-spot',
            group: action.group,
            instanceId: pair.spotInstanceId,
            reason: `kill switch on: launched to replace ${pair.onDemandInstanceId}, not attached while it stays on`,
          }),
        )
      : [],
  )

/** The plan with the actions the switch holds taken out (a held swap's launches dropped), and those actions. */
export const holdActions = (
  plan: GroupPlan,
  mode: KillSwitchMode,
): { readonly plan: GroupPlan; readonly held: readonly Action[] } => {
  if (mode === 'off') return { plan, held: [] }
  const held = plan.actions.filter((a) => !allowedBy(mode, a))
  if (held.length === 0) return { plan, held }
  const kept = plan.actions.filter((a) => allowedBy(mode, a))
  const dropped = mode === 'on' ? dropReplacements(held) : []
  return { plan: { ...plan, actions: [...kept, ...dropped] }, held }
}
