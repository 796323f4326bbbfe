import { describe, expect, it } from 'vitest'
import {
  attemptNumber,
  attemptTag,
  clientToken,
  nextAttempt,
  recordedOutcome,
} from '../../../lambdas/core/plan/attempts.ts'
import { NOW } from '../../builders/world.ts'

describe('replacement attempts', () => {
  it.each([
    [undefined, 1, 'now'],
    ['', 1, 'now'],
    ['garbage', 1, 'now'],
    ['0', 1, 'now'],
    ['3', 3, 'now'],
    ['3@2022-05-31T22:50:00.000Z', 3, '2022-05-31T22:50:00.000Z'],
    ['3:no-instance@2022-05-31T22:59:30.000Z', 4, 'now'],
    ['3:i-0123456789abcdef0@2022-05-31T22:59:30.000Z', 3, '2022-05-31T22:59:30.000Z'],
    ['3:i-0123456789abcdef0@2022-05-31T22:57:00.000Z', 4, 'now'],
    ['3:i-0123456789abcdef0', 4, 'now'],
    ['3:i-0123456789abcdef0@not-a-date', 4, 'now'],
  ] as const)(
    'reads the attempt tag %j at 23:00 (reuse window 150 s) as attempt %i since %s',
    (raw, attempt, since) => {
      expect(nextAttempt(raw, NOW, 150_000)).toEqual({
        attempt,
        since: since === 'now' ? NOW.toISOString() : since,
      })
    },
  )

  it('writes the attempt with the time it was first made, before the launch and with its outcome', () => {
    const attempt = { attempt: 2, since: '2022-05-31T22:59:00.000Z' }
    expect(attemptTag(attempt)).toBe('2@2022-05-31T22:59:00.000Z')
    expect(attemptTag(attempt, { instanceId: 'i-1' })).toBe('2:i-1@2022-05-31T22:59:00.000Z')
    expect(attemptTag(attempt, { instanceId: undefined })).toBe('2:no-instance@2022-05-31T22:59:00.000Z')
  })

  it('reads what an attempt tag records EC2 launched, and nothing from one without an outcome', () => {
    expect(recordedOutcome('2:i-0123456789abcdef0/lt-0abc@2022-05-31T22:59:00.000Z')).toEqual({
      instanceId: 'i-0123456789abcdef0',
      launchTemplateId: 'lt-0abc',
    })
    expect(recordedOutcome('2:no-instance@2022-05-31T22:59:00.000Z')).toBeUndefined()
    expect(recordedOutcome('2@2022-05-31T22:59:00.000Z')).toBeUndefined()
    expect(attemptNumber('7:i-0123456789abcdef0@x')).toBe(7)
    expect(attemptNumber(undefined)).toBe(0)
  })

  it('gives the same replaced instance and attempt the same token, and a new attempt a new one', () => {
    expect(clientToken('i-1', 1)).toBe(clientToken('i-1', 1))
    expect(clientToken('i-1', 2)).not.toBe(clientToken('i-1', 1))
    expect(clientToken('i-2', 1)).not.toBe(clientToken('i-1', 1))
  })
})
