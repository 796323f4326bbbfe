/**
 * What a group's scaling activities say about its launches: the newest one, when it launched nothing, in
 * Auto Scaling's words (StatusCode and StatusMessage,
 * https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_Activity.html). A failed launch reads, e.g.:
 *
 *   Description: Launching a new EC2 instance.  Status Reason: We currently do not have sufficient
 *     m5.large capacity in the Availability Zone you requested (us-east-1a). ... Launching EC2 instance failed.
 *   StatusCode: Failed
 *   StatusMessage: We currently do not have sufficient m5.large capacity ... Launching EC2 instance failed.
 */
import { REVERT_STATUS_MESSAGE_MAX_CHARS } from '../constants.ts'
import type { ScalingActivity } from './scaling-activities.ts'

/** A launch that did not happen, in Auto Scaling's words. */
export interface LaunchFailure {
  readonly statusCode: string
  readonly statusMessage: string
  readonly at: Date
}

/** Activity codes that end a launch with no instance. */
const NOT_LAUNCHED: ReadonlySet<string> = new Set(['Failed', 'Cancelled'])

/** An activity that launched, or tried to launch, an instance (Auto Scaling's Description for one). */
export const isLaunchActivity = (activity: ScalingActivity): boolean =>
  /^Launching a new EC2 instance\b/.test(activity.description ?? '')

/** One line, at most REVERT_STATUS_MESSAGE_MAX_CHARS: the message is AWS's text, of any length. */
const oneLine = (message: string): string => {
  const flat = message.replace(/\s+/g, ' ').trim()
  return flat.length <= REVERT_STATUS_MESSAGE_MAX_CHARS
    ? flat
    : `${flat.slice(0, REVERT_STATUS_MESSAGE_MAX_CHARS - 1)}…`
}

/**
 * The newest launch activity among `activities`, when it launched nothing; undefined when the newest
 * launch succeeded or is still going (an older failure no longer says why), or there is none.
 */
export const latestFailedLaunch = (activities: readonly ScalingActivity[]): LaunchFailure | undefined => {
  const launch = [...activities]
    .sort((a, b) => b.startTime.getTime() - a.startTime.getTime())
    .find(isLaunchActivity)
  if (launch?.statusCode === undefined || !NOT_LAUNCHED.has(launch.statusCode)) return undefined
  return {
    statusCode: launch.statusCode,
    statusMessage: oneLine(launch.statusMessage ?? launch.description ?? ''),
    at: launch.startTime,
  }
}
