import { describe, expect, it } from 'vitest'
import {
  classifySentence,
  desiredChangesSince,
  readActivities,
  type ScalingActivity,
} from '../../../lambdas/core/group/scaling-activities.ts'

const SINCE = new Date('2026-01-01T10:00:00Z')
const activity = (startTime: string, cause: string): ScalingActivity => ({
  startTime: new Date(startTime),
  cause,
})

describe('desiredChangesSince', () => {
  // Causes as Auto Scaling writes them (the AWS CLI reference's examples and the console).
  it.each([
    [
      'SetDesiredCapacity',
      'At 2026-01-01T10:05:00Z a user request explicitly set group desired capacity changing the desired capacity from 9 to 7.  At 2026-01-01T10:05:04Z an instance was taken out of service in response to a difference between desired and actual capacity, shrinking the capacity from 9 to 7.',
      { from: 9, to: 7, at: '2026-01-01T10:05:00.000Z' },
    ],
    [
      'UpdateAutoScalingGroup',
      'At 2026-01-01T10:05:00Z a user request update of AutoScalingGroup constraints to min: 0, max: 16, desired: 16 changing the desired capacity from 0 to 16.  At 2026-01-01T10:05:07Z an instance was started in response to a difference between desired and actual capacity, increasing the capacity from 0 to 16.',
      { from: 0, to: 16, at: '2026-01-01T10:05:00.000Z' },
    ],
    [
      "a scaling policy's alarm",
      'At 2026-01-01T10:05:00Z a monitor alarm TargetTracking-web-AlarmHigh-1 in state ALARM triggered policy cpu50 changing the desired capacity from 3 to 4.  At 2026-01-01T10:05:10Z an instance was started in response to a difference between desired and actual capacity, increasing the capacity from 3 to 4.',
      { from: 3, to: 4, at: '2026-01-01T10:05:00.000Z' },
    ],
    [
      'a scheduled action',
      'At 2026-01-01T10:05:00Z a scheduled action update of AutoScalingGroup constraints to min: 1, max: 10, desired: 5 changing the desired capacity from 8 to 5.',
      { from: 8, to: 5, at: '2026-01-01T10:05:00.000Z' },
    ],
  ])('reads an owner’s change from %s', (_, cause, expected) => {
    const [change] = desiredChangesSince([activity('2026-01-01T10:05:10Z', cause)], SINCE)
    expect(change).toMatchObject({ from: expected.from, to: expected.to, at: new Date(expected.at) })
  })

  it.each([
    [
      "spotswap's attach",
      'At 2026-01-01T10:05:00Z an instance was added in response to user request. Keeping the capacity at the new desired capacity 5.',
    ],
    [
      "spotswap's retirement with a decrement",
      'At 2026-01-01T10:05:00Z instance i-0123456789abcdef0 was taken out of service in response to a user request, shrinking the capacity from 5 to 4.',
    ],
    [
      'a detach with a decrement',
      'At 2026-01-01T10:05:00Z instance i-0123456789abcdef0 was detached in response to a user request, shrinking the capacity from 5 to 4.',
    ],
    [
      'a health-check replacement',
      'At 2026-01-01T10:05:00Z an instance was taken out of service in response to an EC2 health check indicating it has been terminated or stopped.',
    ],
    ['an empty cause', ''],
  ])('sees no owner’s change in %s', (_, cause) => {
    expect(desiredChangesSince([activity('2026-01-01T10:05:10Z', cause)], SINCE)).toEqual([])
  })

  it('leaves out changes made before the swap started, even when their activity ran after', () => {
    const cause =
      'At 2026-01-01T09:59:58Z a user request explicitly set group desired capacity changing the desired capacity from 4 to 5.  At 2026-01-01T10:00:03Z an instance was started in response to a difference between desired and actual capacity, increasing the capacity from 4 to 5.'
    expect(desiredChangesSince([activity('2026-01-01T10:00:03Z', cause)], SINCE)).toEqual([])
  })

  it('counts one change once however many instances it moved, oldest first', () => {
    const scaleIn =
      'At 2026-01-01T10:05:00Z a user request explicitly set group desired capacity changing the desired capacity from 9 to 7.  At 2026-01-01T10:05:04Z an instance was taken out of service in response to a difference between desired and actual capacity, shrinking the capacity from 9 to 7.'
    const scaleOut =
      'At 2026-01-01T10:07:00Z a user request explicitly set group desired capacity changing the desired capacity from 7 to 9.  At 2026-01-01T10:07:04Z an instance was started in response to a difference between desired and actual capacity, increasing the capacity from 7 to 9.'
    const changes = desiredChangesSince(
      [
        activity('2026-01-01T10:07:05Z', scaleOut),
        activity('2026-01-01T10:07:05Z', scaleOut),
        activity('2026-01-01T10:05:05Z', scaleIn),
        activity('2026-01-01T10:05:05Z', scaleIn),
      ],
      SINCE,
    )
    expect(changes.map((c) => [c.from, c.to])).toEqual([
      [9, 7],
      [7, 9],
    ])
  })

  it('takes the activity’s start when the sentence carries no time of its own', () => {
    const [change] = desiredChangesSince(
      [activity('2026-01-01T10:05:10Z', 'a user request changing the desired capacity from 2 to 3.')],
      SINCE,
    )
    expect(change?.at).toEqual(new Date('2026-01-01T10:05:10Z'))
  })
})

describe('classifySentence: the one reader of Auto Scaling’s wording', () => {
  it.each([
    [
      'At 2026-01-01T10:05:00Z a user request explicitly set group desired capacity changing the desired capacity from 9 to 7.',
      'desired-change',
    ],
    [
      'At 2026-01-01T10:05:04Z an instance was taken out of service in response to a difference between desired and actual capacity, shrinking the capacity from 9 to 7.',
      'instance-move',
    ],
    [
      'At 2026-01-01T10:05:00Z an instance was added in response to user request. Keeping the capacity at the new desired capacity 5.',
      'instance-move',
    ],
    [
      'At 2026-01-01T10:05:00Z instance i-0123456789abcdef0 was detached in response to a user request, shrinking the capacity from 5 to 4.',
      'instance-move',
    ],
    [
      'At 2026-01-01T10:05:07Z an instance was started in response to a difference between desired and actual capacity, increasing the capacity from 0 to 16.',
      'instance-move',
    ],
    ['At 2026-01-01T10:05:00Z the group was resized by a new kind of request.', 'unclassified'],
  ])('%s → %s', (sentence, kind) => {
    expect(classifySentence(sentence).kind).toBe(kind)
  })

  it('counts the sentences since the swap started that it could not classify', () => {
    const read = readActivities(
      [
        activity(
          '2026-01-01T10:05:10Z',
          'At 2026-01-01T10:05:00Z the group was resized by a new kind of request.',
        ),
        activity('2026-01-01T09:05:10Z', 'At 2026-01-01T09:05:00Z something from before the swap.'),
        activity(
          '2026-01-01T10:06:10Z',
          'At 2026-01-01T10:06:00Z a user request explicitly set group desired capacity changing the desired capacity from 3 to 4.  At 2026-01-01T10:06:04Z an instance was started in response to a difference between desired and actual capacity, increasing the capacity from 3 to 4.',
        ),
      ],
      SINCE,
    )
    expect(read.unclassified).toBe(1)
    expect(read.changes).toHaveLength(1)
  })
})
