/**
 * A swap recorded when a doomed member's replacement is launched, not only when it is attached. The
 * interruption handler's deadline reminder attaches a replacement only on a verified record of its one pair
 * (core/interruption/deadline-attach.ts); a record written only by the run that attaches leaves nothing to
 * prove the pair when every replacer run between the warning and the deadline dies or skips the group (bench
 * preemption-traces at fault level `both`: 8 of 9 serving dips). So the run that launches the replacement
 * of a member EC2 interrupts, with no swap open, records the swap first (phase `attaching`, one pair,
 * desired capacity the owner's) and names the launch with its id once EC2 returns it.
 *
 * The record is the same as an attach run's before its attach, and so is every way it ends: attached by a
 * replacer run (which keeps its id) or by the deadline reminder; or closed without giving anything back
 * (`attach-not-done`: no raise to undo, the launch unnamed) once its launch or its partner is gone. While
 * both are there it stays (`launched-ahead`), so a run that cannot swap the launch in yet (still booting,
 * the group skipped, its partner past the deadline) does not take the reminder's proof away.
 */
import {
  INTERRUPTION_NOTICE_SECONDS,
  TAG_INTERRUPTION_WARNED,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP_ID,
} from '../constants.ts'
import type { Action, LaunchSpotAction } from '../plan/actions.ts'
import type { Group, Instance } from '../types.ts'
import { formatSwapRecord, type SwapRecord, swapIdAt } from './record.ts'
import type { RecoveryInput } from './recovery.ts'

/** Actions a run may take beside a swap recorded ahead: none changes desired capacity or the record. */
const BESIDE_A_RECORD: ReadonlySet<Action['kind']> = new Set([
  'launch-spot',
  'terminate-spot',
  'release-doomed',
  'settle-members',
  'ecs-drain',
  'ecs-undrain',
])

export interface SwapAheadInput {
  readonly group: Group
  readonly now: Date
  /** A swap is open (a record, or attached pairs): it is recorded already, or another one is. */
  readonly swapOpen: boolean
  /** The open swap's record when it was written ahead of doomed members' launches (`launched-ahead`). */
  readonly launchedAhead?: SwapRecord | undefined
  /** This run's actions before its launches. */
  readonly actions: readonly Action[]
  /** For a member EC2 interrupts: when it must leave, epoch ms; undefined for any other. */
  readonly leavesAt: (id: string) => number | undefined
}

/**
 * The launches, those replacing doomed members (before their deadline) carrying the swap to record ahead
 * of them: one pair each. With no swap open, a new record of them; with a swap open that was itself
 * recorded ahead (`launched-ahead`, nothing attached), the same record with these pairs added, so the
 * second member of a double interruption is proven as the first is. None with any other swap open, or
 * when this run does anything else that changes desired capacity or the record: the record's owner figure
 * must be the group's desired capacity as the launch run leaves it.
 */
export const withSwapAhead = (input: SwapAheadInput, launches: readonly Action[]): readonly Action[] => {
  const open = input.launchedAhead
  const extending =
    open !== undefined &&
    open.id !== undefined &&
    open.phase === 'attaching' &&
    open.originalMaxSize === undefined &&
    open.ownerDesired === input.group.desiredCapacity
  if ((input.swapOpen && !extending) || input.actions.some((a) => !BESIDE_A_RECORD.has(a.kind)))
    return launches
  const doomed = new Set(
    launches.filter((action): action is LaunchSpotAction => {
      if (action.kind !== 'launch-spot' || !action.releaseIfNotLaunched) return false
      const leaves = input.leavesAt(action.replacing)
      return leaves !== undefined && leaves > input.now.getTime()
    }),
  )
  if (doomed.size === 0) return launches
  const record: SwapRecord =
    extending && open !== undefined
      ? { ...open, pairs: open.pairs + doomed.size }
      : {
          version: 2,
          id: swapIdAt(input.now),
          phase: 'attaching',
          ownerDesired: input.group.desiredCapacity,
          pairs: doomed.size,
          step: undefined,
          originalMaxSize: undefined,
          raisedMaxSize: undefined,
          startedAt: input.now,
        }
  // Every launch writes the same record before it: whichever runs first proves them all.
  const swapAhead = { swapId: record.id as string, swapRecord: formatSwapRecord(record) }
  return launches.map((action) =>
    action.kind === 'launch-spot' && doomed.has(action) ? { ...action, swapAhead } : action,
  )
}

/**
 * A launch a record at its attach was written ahead of, while it still stands for one: no MaxSize raise,
 * nothing attached (the caller checked desired capacity is the owner's), one to as many launches outside
 * the group carrying its id as it holds pairs, and among them one pending or running whose partner is still
 * in the group and either a member EC2 interrupts or, warned but unconfirmed this run (its Spot request
 * status unread), no older than one interruption notice: EC2 takes it by then, so the record stands no
 * longer than that.
 */
export const launchedAheadOf = (
  record: SwapRecord,
  input: Pick<RecoveryInput, 'launched' | 'stillIn' | 'leavesAt' | 'now' | 'detail'>,
): Instance | undefined => {
  if (record.id === undefined || record.phase !== 'attaching' || record.attached !== undefined)
    return undefined
  // A raise is an attach run's, undone only by its close: a swap started under this record makes none.
  if (record.originalMaxSize !== undefined) return undefined
  // Each pair recorded ahead is one launch; a run that stopped before a launch leaves fewer named.
  const named = input.launched.filter((instance) => instance.tags[TAG_SWAP_ID] === record.id)
  if (named.length === 0 || named.length > record.pairs) return undefined
  const startedMs = record.startedAt?.getTime() ?? Number.NaN
  const standsFor = (launch: Instance): boolean => {
    if (launch.state !== 'pending' && launch.state !== 'running') return false
    const partner = launch.tags[TAG_REPLACING_INSTANCE]
    if (partner === undefined || !input.stillIn(partner)) return false
    const warned = input.detail(partner)?.tags[TAG_INTERRUPTION_WARNED] !== undefined
    const withinNotice = warned && input.now.getTime() - startedMs < INTERRUPTION_NOTICE_SECONDS * 1000
    return input.leavesAt(partner) !== undefined || withinNotice
  }
  // One standing pair keeps it: a pair whose member left without its replacement (launched too late to be
  // attached) takes nothing from the others' proof, and its launch goes as partner-gone.
  return named.find(standsFor)
}
