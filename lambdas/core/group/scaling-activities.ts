/**
 * What a group's scaling activities tell about its owner. Auto Scaling writes an activity for every
 * instance it launches, terminates, attaches or detaches, and its cause begins with what set the group in
 * motion. When that was a change of desired capacity (SetDesiredCapacity, UpdateAutoScalingGroup, a
 * scaling policy's alarm, a scheduled action), the cause says so in one fixed phrase:
 *
 *   At 2020-10-30T19:35:51Z a user request update of AutoScalingGroup constraints to min: 0, max: 16,
 *   desired: 16 changing the desired capacity from 0 to 16.  At 2020-10-30T19:36:07Z an instance was
 *   started in response to a difference between desired and actual capacity, increasing the capacity
 *   from 0 to 16.
 *
 * spotswap never sets desired capacity itself (its attach and its retirements with a decrement are
 * described as user requests on one instance, never with that phrase), so such a sentence is someone
 * else's change. Setting desired to the value it already has writes no activity: no reader can see it.
 */

export interface ScalingActivity {
  readonly startTime: Date
  readonly cause: string
  /** What the activity did, e.g. "Launching a new EC2 instance. Status Reason: ...". */
  readonly description?: string
  /** Successful, Failed, Cancelled, InProgress... (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_Activity.html). */
  readonly statusCode?: string
  /** Why it ended as it did, in Auto Scaling's (or EC2's) words. */
  readonly statusMessage?: string
}

export interface DesiredChange {
  /** When desired capacity was changed: the sentence's own time, else the activity's start. */
  readonly at: Date
  readonly from: number
  readonly to: number
  /** The sentence that says so, for the log. */
  readonly cause: string
}

/**
 * What the replacer learnt of a group's scaling activities since its open swap started: the owner's
 * changes of desired capacity, or why they could not be read.
 */
export type OwnerChanges =
  | {
      readonly kind: 'read'
      readonly changes: readonly DesiredChange[]
      /** Sentences in none of Auto Scaling's known wordings (counted in a metric: the wording may change). */
      readonly unclassified?: number
    }
  | { readonly kind: 'unreadable'; readonly error: string }

const SENTENCE_START = /(?=\bAt \d{4}-\d{2}-\d{2}T)/
const DESIRED_CHANGE = /changing the desired capacity from (\d{1,9}) to (\d{1,9})/
const SENTENCE_TIME = /^At (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)/
/** An instance started, added, taken out of service, detached or terminated: no change of desired by itself. */
const INSTANCE_MOVE =
  /^At \S+ (?:an instance|instance i-[0-9a-f]{8,17}) was (?:started|launched|added|taken out of service|detached|terminated|moved)\b/

/** What one sentence of a cause says, in Auto Scaling's wording: the one place that wording is read. */
export type ActivitySentence =
  | { readonly kind: 'desired-change'; readonly from: number; readonly to: number }
  | { readonly kind: 'instance-move' }
  | { readonly kind: 'unclassified' }

export const classifySentence = (sentence: string): ActivitySentence => {
  const change = DESIRED_CHANGE.exec(sentence)
  if (change !== null) return { kind: 'desired-change', from: Number(change[1]), to: Number(change[2]) }
  return INSTANCE_MOVE.test(sentence.trim()) ? { kind: 'instance-move' } : { kind: 'unclassified' }
}

/**
 * Changes of desired capacity made by someone else at or after `since`, oldest first (one change explains
 * several activities, each instance it launched or terminated, so repeats count once), and how many
 * sentences since then were in no known wording.
 */
export const readActivities = (
  activities: readonly ScalingActivity[],
  since: Date,
): { readonly changes: DesiredChange[]; readonly unclassified: number } => {
  // The causes give whole seconds: a change in the swap's own second counts (it may be after it).
  const sinceMs = Math.floor(since.getTime() / 1000) * 1000
  const changes = new Map<string, DesiredChange>()
  let unclassified = 0
  for (const activity of activities) {
    for (const sentence of activity.cause.split(SENTENCE_START)) {
      if (sentence.trim() === '') continue
      const stated = Date.parse(SENTENCE_TIME.exec(sentence.trim())?.[1] ?? '')
      const at = Number.isNaN(stated) ? activity.startTime : new Date(stated)
      if (at.getTime() < sinceMs) continue
      const said = classifySentence(sentence)
      if (said.kind === 'unclassified') unclassified++
      if (said.kind !== 'desired-change') continue
      const entry = { at, from: said.from, to: said.to, cause: sentence.trim() }
      changes.set(`${at.getTime()}:${entry.from}:${entry.to}`, entry)
    }
  }
  return { changes: [...changes.values()].sort((a, b) => a.at.getTime() - b.at.getTime()), unclassified }
}

export const desiredChangesSince = (activities: readonly ScalingActivity[], since: Date): DesiredChange[] =>
  readActivities(activities, since).changes
