/**
 * The swap as a state table: what an open swap does next, from what a run observes. A swap starts by
 * recording itself and attaching its replacements (phase `attaching`, then `waiting`); each later run
 * finds the first row of SWAP_TRANSITIONS that holds for the group, and while the swap is finishing, the
 * first row of PAIR_TRANSITIONS for each pair and of VANISHED_TRANSITIONS for each pair that vanished.
 * Every step that takes a unit of desired capacity away is announced in the record first (phase
 * `retiring`); when no pair is left the swap closes: MaxSize back, record dropped. core/swap/recover.ts
 * turns the rows into actions; docs/reliability.md prints these tables.
 */

/** What the group's swap does this run. */
export type SwapOutcome =
  /** Nothing is open. */
  | 'nothing'
  /** Nothing is changed this run; the reason is shown against the swap's replacements. */
  | 'wait'
  /** The swap is over without retiring anything: MaxSize back (never below desired), record dropped. */
  | 'close'
  /** Each pair is released (the replacement stays as an ordinary member, the partner as an ordinary instance), then close. */
  | 'release-and-close'
  /** Each pair goes by PAIR_TRANSITIONS, each vanished pair by VANISHED_TRANSITIONS; close when none is left. */
  | 'finish-pairs'

export type SwapSituation =
  | 'no-swap'
  | 'group-held'
  | 'record-unreadable'
  | 'record-unverified'
  | 'launched-ahead'
  | 'attach-not-done'
  | 'owner-resized'
  | 'activities-unread'
  | 'activities-unreadable'
  | 'owner-changed'
  | 'attach-partial'
  | 'backfill-booting'
  | 'finishing'

export type PairOutcome =
  | 'wait'
  /**
   * The owner holds the pair: it keeps its unit (the swap stays open) while the other pairs finish. It is
   * not looked at again sooner than the schedule: only the owner lifting a protection changes it.
   */
  | 'hold'
  /** The partner leaves with a decrement (the attach's unit). */
  | 'retire-partner'
  /** The replacement leaves with a decrement; the partner stays. */
  | 'retire-replacement'
  /** The replacement leaves with a decrement; the partner stays and gets no new replacement for a while. */
  | 'retire-replacement-and-back-off'

export type PairSituation =
  | 'both-protected'
  | 'partner-kept'
  | 'partner-doomed-now'
  | 'serving'
  | 'not-serving-yet'
  | 'health-unread'
  | 'replacement-protected'
  | 'not-serving-by-deadline'
  | 'ecs-registering'
  | 'ecs-drain'
  | 'ecs-draining'
  | 'ecs-not-registered-by-deadline'
  | 'ecs-drain-stalled'
  | 'ecs-standalone-task'
  | 'ecs-tasks-unread'
  | 'ecs-managed-draining'

export type VanishedOutcome = 'give-back' | 'wait-all'
export type VanishedSituation = 'member-may-leave' | 'no-member-may-leave'

export interface Transition<S extends string, O extends string> {
  readonly situation: S
  readonly outcome: O
  /** Why, in a user's words: shown in the plan, the log and the docs. */
  readonly why: string
}

/** First match wins; the order is the order in which the situations are checked. */
export const SWAP_TRANSITIONS: readonly Transition<SwapSituation, SwapOutcome>[] = [
  { situation: 'no-swap', outcome: 'nothing', why: 'no swap record and no attached pair' },
  {
    situation: 'group-held',
    outcome: 'wait',
    why: 'CloudFormation or the owner hold the group (stack update, deletion, suspended processes)',
  },
  {
    situation: 'record-unreadable',
    outcome: 'release-and-close',
    why: 'attached pairs without a record spotswap can believe: their unit cannot be told from the owner’s, so nothing is retired',
  },
  {
    situation: 'record-unverified',
    outcome: 'release-and-close',
    why: "the record holds units, and what claims to be its pair (an instance carrying its swap id) is not spotswap's launch: a record spotswap did not write is never acted on",
  },
  {
    situation: 'launched-ahead',
    outcome: 'wait',
    why: 'recorded when the replacement of a member EC2 interrupts was launched, and nothing is attached yet: the record stays while the launch and its partner are there, so a run swaps it in under that record, or the interruption deadline attaches it',
  },
  {
    situation: 'attach-not-done',
    outcome: 'close',
    why: 'recorded, but nothing is attached and desired capacity is the owner’s: the attach never happened',
  },
  {
    situation: 'owner-resized',
    outcome: 'release-and-close',
    why: 'desired capacity is not what the record accounts for: the owner’s figure stands, nothing is retired',
  },
  {
    situation: 'activities-unread',
    outcome: 'wait',
    why: 'nothing confirms the attach, and desired capacity is the owner’s plus the pairs: an attach and an owner’s scale-out by as many read the same, so the scaling activities are read and the group planned again',
  },
  {
    situation: 'activities-unreadable',
    outcome: 'wait',
    why: 'the group’s scaling activities could not be read: an owner’s change could not be ruled out',
  },
  {
    situation: 'owner-changed',
    outcome: 'release-and-close',
    why: 'the scaling activities show an owner’s change of desired capacity since the swap started: theirs stands',
  },
  {
    situation: 'attach-partial',
    outcome: 'wait',
    why: 'the attach stopped part way (a later chunk of 20 refused, or the run cut short) and launches carrying the swap’s id are proven never attached: they are terminated first, and the swap finishes the pairs desired capacity shows once they are gone',
  },
  {
    situation: 'backfill-booting',
    outcome: 'wait',
    why: 'fewer members in service than desired: retiring now would dip below it',
  },
  {
    situation: 'finishing',
    outcome: 'finish-pairs',
    why: 'the record holds and no one else changed desired capacity',
  },
]

export const PAIR_TRANSITIONS: readonly Transition<PairSituation, PairOutcome>[] = [
  // A partner ECS protects while it runs tasks (core/ecs/drain.ts): drained first, retired once ECS lifts
  // the protection (then as `serving`).
  {
    situation: 'ecs-registering',
    outcome: 'wait',
    why: 'ECS protects the partner while it runs tasks: it is drained once its replacement’s container instance is ACTIVE in the cluster',
  },
  {
    situation: 'ecs-drain',
    outcome: 'wait',
    why: 'its replacement’s container instance is ACTIVE: the partner is set DRAINING, and retired once ECS has moved its tasks and lifted its protection',
  },
  {
    situation: 'ecs-draining',
    outcome: 'wait',
    why: 'ECS moves the partner’s tasks; it is retired once ECS lifts its protection',
  },
  {
    situation: 'ecs-not-registered-by-deadline',
    outcome: 'retire-replacement-and-back-off',
    why: 'its replacement did not join the cluster by the deadline: the partner keeps its tasks',
  },
  {
    situation: 'ecs-drain-stalled',
    outcome: 'retire-replacement-and-back-off',
    why: 'ECS did not lift the partner’s protection by the drain deadline: the partner is set ACTIVE again and stays',
  },
  {
    situation: 'ecs-standalone-task',
    outcome: 'retire-replacement-and-back-off',
    why: 'the partner runs a standalone task, which ECS never moves: it is not drained, and stays',
  },
  {
    situation: 'ecs-tasks-unread',
    outcome: 'wait',
    why: 'the partner’s tasks could not be read: it is not drained before they are, and stays if they are not by the drain deadline',
  },
  {
    situation: 'ecs-managed-draining',
    outcome: 'retire-partner',
    why: 'its replacement’s container instance is ACTIVE, it serves, and the capacity provider drains what Auto Scaling terminates: the partner leaves, and ECS drains it first',
  },
  {
    situation: 'both-protected',
    outcome: 'hold',
    why: 'the owner protected both sides of the pair: it keeps its unit until they lift a protection; the other pairs finish',
  },
  {
    situation: 'partner-kept',
    outcome: 'retire-replacement',
    why: 'the partner was protected since the swap started, or retiring it would break the on-demand minimum',
  },
  {
    situation: 'partner-doomed-now',
    outcome: 'retire-partner',
    why: 'EC2 interrupts the partner now, so it leaves whether its replacement serves yet or not',
  },
  { situation: 'serving', outcome: 'retire-partner', why: 'its replacement serves' },
  {
    situation: 'not-serving-yet',
    outcome: 'wait',
    why: 'its replacement does not serve yet; the partner keeps serving until it does or the deadline comes',
  },
  {
    situation: 'health-unread',
    outcome: 'wait',
    why: 'the load balancers’ health could not be read: no verdict, so nothing is retired before the deadline',
  },
  {
    situation: 'replacement-protected',
    outcome: 'hold',
    why: 'its replacement does not serve by the deadline, but the owner protected it: the pair keeps its unit until they lift the protection; the other pairs finish',
  },
  {
    situation: 'not-serving-by-deadline',
    outcome: 'retire-replacement-and-back-off',
    why: 'its replacement did not serve (or could not be seen to) by the deadline',
  },
]

export const VANISHED_TRANSITIONS: readonly Transition<VanishedSituation, VanishedOutcome>[] = [
  {
    situation: 'member-may-leave',
    outcome: 'give-back',
    why: 'a pair vanished without its decrement: its unit goes back with a member (on-demand first while above the minimum, oldest, unprotected)',
  },
  {
    situation: 'no-member-may-leave',
    outcome: 'wait-all',
    why: 'a pair vanished without its decrement, and no member may leave (protected, or the on-demand minimum)',
  },
]

const rowOf = <S extends string, O extends string>(
  table: readonly Transition<S, O>[],
  situation: S,
): Transition<S, O> => {
  const row = table.find((r) => r.situation === situation)
  if (row === undefined) throw new Error(`no transition for ${situation}`)
  return row
}

export const swapTransition = (situation: SwapSituation) => rowOf(SWAP_TRANSITIONS, situation)
export const pairTransition = (situation: PairSituation) => rowOf(PAIR_TRANSITIONS, situation)
export const vanishedTransition = (situation: VanishedSituation) => rowOf(VANISHED_TRANSITIONS, situation)
