import { describe, expect, it } from 'vitest'
import { REVERT_STATUS_MESSAGE_MAX_CHARS } from '../../../lambdas/core/constants.ts'
import { latestFailedLaunch } from '../../../lambdas/core/group/launch-activities.ts'
import type { ScalingActivity } from '../../../lambdas/core/group/scaling-activities.ts'

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute))
const INSUFFICIENT =
  'We currently do not have sufficient m5.large capacity in the Availability Zone you requested (us-east-1a). Launching EC2 instance failed.'
const launch = (minute: number, statusCode: string, statusMessage?: string): ScalingActivity => ({
  startTime: at(minute),
  cause: `At ${at(minute).toISOString()} an instance was started in response to a difference between desired and actual capacity, increasing the capacity from 3 to 4.`,
  description: `Launching a new EC2 instance${statusMessage === undefined ? ': i-0123456789abcdef0' : `.  Status Reason: ${statusMessage}`}`,
  statusCode,
  ...(statusMessage === undefined ? {} : { statusMessage }),
})

describe('latestFailedLaunch', () => {
  it('quotes the newest launch when it failed', () => {
    expect(latestFailedLaunch([launch(5, 'Successful'), launch(10, 'Failed', INSUFFICIENT)])).toEqual({
      statusCode: 'Failed',
      statusMessage: INSUFFICIENT,
      at: at(10),
    })
  })

  it.each([
    ['the newest launch succeeded', [launch(10, 'Successful'), launch(5, 'Failed', INSUFFICIENT)]],
    ['the newest launch is still going', [launch(10, 'InProgress'), launch(5, 'Failed', INSUFFICIENT)]],
    [
      'no activity launched',
      [
        {
          startTime: at(10),
          cause: 'x',
          description: 'Terminating EC2 instance: i-1',
          statusCode: 'Failed',
          statusMessage: 'no',
        },
      ],
    ],
    ['there is no activity', []],
  ])('says nothing when %s', (_case, activities: ScalingActivity[]) => {
    expect(latestFailedLaunch(activities)).toBeUndefined()
  })

  it('quotes a cancelled launch, on one line and at most REVERT_STATUS_MESSAGE_MAX_CHARS long', () => {
    const long = `${'Quota\nexceeded '.repeat(100)}`
    const failure = latestFailedLaunch([launch(10, 'Cancelled', long)])
    expect(failure?.statusCode).toBe('Cancelled')
    expect(failure?.statusMessage).toHaveLength(REVERT_STATUS_MESSAGE_MAX_CHARS)
    expect(failure?.statusMessage).toMatch(/^Quota exceeded Quota [^\n]*…$/)
  })
})
