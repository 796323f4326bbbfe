/**
 * The swap record: one versioned tag on the group for the duration of a swap (TAG_SWAP), naming the swap,
 * its phase, the desired capacity its owner had set when it began and how many pairs it still holds, the
 * instance its last announced step takes out, and, when it raised MaxSize, the MaxSize before the raise
 * (`max`) and the one it raised it to (`raised`); while a swap of more than one chunk of 20 attaches, how many
 * replacements its confirmed chunks attached (`attached`, see partial-attach.ts). Desired capacity stands at the owner's figure plus the
 * open pairs, and nowhere else: every step that takes a unit away is announced here first, so the next run
 * can tell spotswap's own steps from someone else's change (judgeRecord).
 *
 *   v2 id=s1767225960 phase=retiring owner=4 pairs=1 step=i-0123456789abcdef0 max=4 raised=6 started=2026-01-01T00:06:00.000Z
 *
 * A swap undoes only its own raise: MaxSize goes back to `max` only while it still is `raised`
 * (maxSizeToRestore). The format extends by `key=value` fields (a reader refuses a key it does not know,
 * so a new field comes with a new reader first). Several open swaps could share one raise: each record
 * would carry the same `max` and the `raised` value last written for the group, and only the last of them
 * to close would put MaxSize back.
 *
 * Records of version 1 (`spotswap:swap-desired=<after>/<pairs>[/<step>]`, with TAG_SWAP_STARTED and
 * TAG_ORIGINAL_MAX_SIZE beside it) are still read, so a swap open across an upgrade is finished; so are
 * version-2 records written before `raised` was (see maxSizeToRestore).
 */
import { TAG_ORIGINAL_MAX_SIZE, TAG_SWAP, TAG_SWAP_DESIRED, TAG_SWAP_STARTED } from '../constants.ts'

/**
 * `attaching`: recorded, the attach not yet confirmed. `waiting`: attached, the partners wait for their
 * replacements to serve. `retiring`: a step that takes a unit away was announced (`step`).
 */
export type SwapPhase = 'attaching' | 'waiting' | 'retiring'

export interface SwapRecord {
  /** 1: read from the legacy tags; 2: TAG_SWAP. */
  readonly version: 1 | 2
  /** Names the swap on its replacements (TAG_SWAP_ID); version-1 records have none. */
  readonly id: string | undefined
  readonly phase: SwapPhase
  /** Desired capacity as the owner set it when the swap began. */
  readonly ownerDesired: number
  /** Pairs the swap still holds a unit of desired capacity for. */
  readonly pairs: number
  /** The instance the last announced step takes out of the group; still in the group = not yet done. */
  readonly step: string | undefined
  /** MaxSize before the swap raised it; undefined when it was not raised. */
  readonly originalMaxSize: number | undefined
  /** The MaxSize the swap raised it to; undefined when it was not raised, or in records written before it was recorded. */
  readonly raisedMaxSize: number | undefined
  /**
   * The MaxSize an earlier close left held (core/swap/closing.ts heldRaise) when this swap, carrying that
   * held raise on, raised it further: between `max` and `raised`. While MaxSize is still this value, the
   * swap's own raise never happened (or was undone), and a close holds it again rather than drop the only
   * trace of `max`.
   */
  readonly heldMaxSize?: number | undefined
  /**
   * Phase `attaching` only: replacements of the chunks whose attach was confirmed (each tagged
   * TAG_JOINED_GROUP before this was written); absent before the first chunk is.
   */
  readonly attached?: number | undefined
  readonly startedAt: Date | undefined
}

/** Desired capacity while the record stands: the owner's plus the pairs held. */
export const recordedDesired = (record: SwapRecord): number => record.ownerDesired + record.pairs

const PHASES: readonly SwapPhase[] = ['attaching', 'waiting', 'retiring']
const INSTANCE_ID = /^i-[0-9a-f]{8,17}$/
const COUNT = /^\d{1,9}$/
const SWAP_ID = /^s[0-9a-z]{1,20}$/

/** A swap's id from its start: unique per group (one swap at a time), short, readable. */
export const swapIdAt = (startedAt: Date): string => `s${Math.floor(startedAt.getTime() / 1000).toString(36)}`

export const formatSwapRecord = (record: SwapRecord): string =>
  [
    'v2',
    ...(record.id === undefined ? [] : [`id=${record.id}`]),
    `phase=${record.phase}`,
    `owner=${record.ownerDesired}`,
    `pairs=${record.pairs}`,
    ...(record.step === undefined ? [] : [`step=${record.step}`]),
    ...(record.originalMaxSize === undefined ? [] : [`max=${record.originalMaxSize}`]),
    ...(record.raisedMaxSize === undefined ? [] : [`raised=${record.raisedMaxSize}`]),
    ...(record.heldMaxSize === undefined ? [] : [`held=${record.heldMaxSize}`]),
    ...(record.attached === undefined ? [] : [`attached=${record.attached}`]),
    ...(record.startedAt === undefined ? [] : [`started=${record.startedAt.toISOString()}`]),
  ].join(' ')

const parseV2 = (raw: string): SwapRecord | undefined => {
  const [version, ...fields] = raw.split(' ')
  if (version !== 'v2') return undefined
  const values = new Map<string, string>()
  for (const field of fields) {
    const at = field.indexOf('=')
    if (at <= 0 || values.has(field.slice(0, at))) return undefined
    values.set(field.slice(0, at), field.slice(at + 1))
  }
  const known = new Set([
    'id',
    'phase',
    'owner',
    'pairs',
    'step',
    'max',
    'raised',
    'held',
    'attached',
    'started',
  ])
  if ([...values.keys()].some((key) => !known.has(key))) return undefined
  const id = values.get('id')
  const phase = values.get('phase') as SwapPhase | undefined
  const owner = values.get('owner') ?? ''
  const pairs = values.get('pairs') ?? ''
  const step = values.get('step')
  const max = values.get('max')
  const raised = values.get('raised')
  const held = values.get('held')
  const attached = values.get('attached')
  const started = values.get('started')
  const startedMs = started === undefined ? Number.NaN : Date.parse(started)
  if (id !== undefined && !SWAP_ID.test(id)) return undefined
  if (phase === undefined || !PHASES.includes(phase)) return undefined
  if (!COUNT.test(owner) || !COUNT.test(pairs)) return undefined
  if (step !== undefined && !INSTANCE_ID.test(step)) return undefined
  if (max !== undefined && !COUNT.test(max)) return undefined
  // A raise names what it raised from, and goes up.
  if (raised !== undefined && (max === undefined || !COUNT.test(raised) || Number(raised) <= Number(max)))
    return undefined
  // A held raise carried on lies between what the swap raised from and what it raised to.
  if (
    held !== undefined &&
    (raised === undefined ||
      !COUNT.test(held) ||
      Number(held) <= Number(max) ||
      Number(held) >= Number(raised))
  )
    return undefined
  if (started !== undefined && Number.isNaN(startedMs)) return undefined
  // Confirmed chunks are counted only while the attach goes on, and among the pairs.
  if (
    attached !== undefined &&
    (phase !== 'attaching' || !COUNT.test(attached) || Number(attached) > Number(pairs))
  )
    return undefined
  if ((phase === 'retiring') !== (step !== undefined)) return undefined
  return {
    version: 2,
    id,
    phase,
    ownerDesired: Number(owner),
    pairs: Number(pairs),
    step,
    originalMaxSize: max === undefined ? undefined : Number(max),
    raisedMaxSize: raised === undefined ? undefined : Number(raised),
    ...(held === undefined ? {} : { heldMaxSize: Number(held) }),
    ...(attached === undefined ? {} : { attached: Number(attached) }),
    startedAt: started === undefined ? undefined : new Date(startedMs),
  }
}

/** `<after>/<pairs>[/<step>]`, where after = the owner's desired + pairs. */
const parseV1 = (raw: string, tags: Readonly<Record<string, string>>): SwapRecord | undefined => {
  const match = /^(\d{1,9})\/(\d{1,9})(?:\/(i-[0-9a-f]{8,17}))?$/.exec(raw)
  if (!match) return undefined
  const after = Number(match[1])
  const pairs = Number(match[2])
  if (pairs > after) return undefined
  const max = tags[TAG_ORIGINAL_MAX_SIZE]
  const startedMs = Date.parse(tags[TAG_SWAP_STARTED] ?? '')
  return {
    version: 1,
    id: undefined,
    phase: match[3] === undefined ? 'waiting' : 'retiring',
    ownerDesired: after - pairs,
    pairs,
    step: match[3],
    originalMaxSize: max !== undefined && COUNT.test(max) ? Number(max) : undefined,
    raisedMaxSize: undefined,
    startedAt: Number.isNaN(startedMs) ? undefined : new Date(startedMs),
  }
}

/**
 * The MaxSize a close puts back, if any. A swap undoes only its own raise: only while MaxSize is still the
 * value it raised it to (an owner's change since, up or down, stands), or, for a swap that carried on a
 * held raise (`held`), still the value that held raise left: its own raise never happened. A record without `raised` (version
 * 1, or version 2 written before it was recorded) puts back only while MaxSize is above `max` and within
 * what its pairs explain: the swap raised it to the owner's desired plus its pairs, at most the owner's
 * desired plus the pairs the record held when the run read it. The caller keeps it at or above desired
 * capacity (closing.ts).
 */
export const maxSizeToRestore = (record: SwapRecord, maxSizeNow: number): number | undefined => {
  const original = record.originalMaxSize
  if (original === undefined) return undefined
  if (record.raisedMaxSize !== undefined)
    return maxSizeNow === record.raisedMaxSize || maxSizeNow === record.heldMaxSize ? original : undefined
  return maxSizeNow > original && maxSizeNow <= recordedDesired(record) ? original : undefined
}

/**
 * A record that only holds the rest of a raise a close could not put back (core/swap/closing.ts heldRaise):
 * no pairs, nothing attaching or retiring, raised to the owner's desired capacity, not to desired plus pairs.
 */
export const isHeldRaise = (record: SwapRecord): boolean =>
  record.pairs === 0 &&
  record.phase === 'waiting' &&
  record.originalMaxSize !== undefined &&
  record.raisedMaxSize === record.ownerDesired

export type RecordOnGroup =
  | { readonly kind: 'none' }
  | { readonly kind: 'read'; readonly record: SwapRecord }
  /** A record that cannot be believed: nothing is retired on it; its pairs are released. */
  | { readonly kind: 'unreadable'; readonly raw: string; readonly originalMaxSize: number | undefined }

/** The group's record, from TAG_SWAP, else the version-1 tags. */
export const readSwapRecord = (tags: Readonly<Record<string, string>>): RecordOnGroup => {
  const v2 = tags[TAG_SWAP]
  const v1 = tags[TAG_SWAP_DESIRED]
  const legacyMax = tags[TAG_ORIGINAL_MAX_SIZE]
  const legacyMaxValue = legacyMax !== undefined && COUNT.test(legacyMax) ? Number(legacyMax) : undefined
  if (v2 !== undefined) {
    const record = parseV2(v2)
    return record === undefined
      ? { kind: 'unreadable', raw: v2, originalMaxSize: legacyMaxValue }
      : { kind: 'read', record }
  }
  if (v1 !== undefined) {
    const record = parseV1(v1, tags)
    return record === undefined
      ? { kind: 'unreadable', raw: v1, originalMaxSize: legacyMaxValue }
      : { kind: 'read', record }
  }
  // A raised MaxSize whose record is gone is still put back.
  if (legacyMax !== undefined)
    return {
      kind: 'unreadable',
      raw: `${TAG_ORIGINAL_MAX_SIZE}=${legacyMax}`,
      originalMaxSize: legacyMaxValue,
    }
  return { kind: 'none' }
}

/** Every tag a swap may leave on its group (both versions): dropped together when it is over. */
export const SWAP_RECORD_TAGS: readonly string[] = [
  TAG_SWAP,
  TAG_SWAP_DESIRED,
  TAG_SWAP_STARTED,
  TAG_ORIGINAL_MAX_SIZE,
]

/** The record announced ahead of the `steps`-th step down, which takes `instanceId` out. */
export const stepDown = (record: SwapRecord, instanceId: string, steps = 1): SwapRecord => ({
  ...record,
  attached: undefined,
  phase: 'retiring',
  pairs: record.pairs - steps,
  step: instanceId,
})

/**
 * What the record stands for now: an announced step whose instance is still in the group has not
 * happened, so it is undone (one pair back).
 */
export const currentRecord = (record: SwapRecord, stillIn: (instanceId: string) => boolean): SwapRecord =>
  record.step !== undefined && stillIn(record.step) ? { ...record, pairs: record.pairs + 1 } : record

/**
 * Whether desired capacity can still be what spotswap's own steps made it, given `halfDone` pairs observed
 * and whether the last announced step's instance is still in the group. Before the first step down,
 * desired stays the owner's plus every pair, all half-done. After one, the record stands for what is left
 * (undoing the announced step while its instance is still in: the run stopped between the record and the
 * step). Desired one above that, with the announced instance gone, means it left another way and the
 * step's unit is still held. Then desired is the recorded figure with at most `pairs` half-done: a pair may
 * have vanished without its decrement (one side taken by EC2 while the interruption handler could not
 * leave with it, Auto Scaling backfilling it), and its unit is still held. Anything else (another desired,
 * more half-done pairs than recorded) is someone else's change. The same desired with fewer pairs can also
 * be an owner's scale-in and scale-out in between, so what this judges ours still needs the group's
 * scaling activities to show no change of desired capacity by anyone else.
 */
export const judgeRecord = (
  record: SwapRecord,
  desired: number,
  halfDone: number,
  stillIn: (instanceId: string) => boolean,
): { readonly ours: boolean; readonly record: SwapRecord; readonly vanished: number } => {
  const current = currentRecord(record, stillIn)
  // An announced step whose instance left another way (EC2 took it before the step's call, or the call
  // failed) gave nothing back: desired one above what the step leads to says so.
  const stepLost = current === record && record.step !== undefined && desired === recordedDesired(record) + 1
  const now = stepLost ? { ...record, pairs: record.pairs + 1 } : current
  const ours = desired === recordedDesired(now) && halfDone <= now.pairs
  return { ours, record: now, vanished: ours ? now.pairs - halfDone : 0 }
}

/**
 * The id of the group's open swap while nothing shows its attach happened (phase `attaching`, desired
 * capacity still the owner's): launches carrying it are still spotswap's (core/group/provenance.ts).
 */
export const unattachedSwapIdOf = (group: {
  readonly tags: Readonly<Record<string, string>>
  readonly desiredCapacity: number
}): string | undefined => {
  const onGroup = readSwapRecord(group.tags)
  if (onGroup.kind !== 'read') return undefined
  const { record } = onGroup
  return record.phase === 'attaching' && group.desiredCapacity === record.ownerDesired ? record.id : undefined
}
