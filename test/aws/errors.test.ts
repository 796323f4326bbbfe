import { describe, expect, it } from 'vitest'
import {
  errorCode,
  ignoreNotFound,
  isCapacityError,
  isCapacityErrorCode,
  isNotFound,
  isPermanentLaunchErrorCode,
  isQuotaError,
  isQuotaErrorCode,
  isThrottle,
  isTransient,
} from '../../lambdas/aws/errors.ts'
import { awsError } from './support.ts'

const networkError = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })

describe('AWS error classification', () => {
  it.each([
    // code, message, HTTP status, capacity, notFound, throttle, transient
    [
      'InsufficientInstanceCapacity',
      'We currently do not have sufficient capacity',
      500,
      true,
      false,
      false,
      true,
    ],
    ['InsufficientCapacity', 'There is no Spot capacity available', 400, true, false, false, false],
    [
      'SpotMaxPriceTooLow',
      'Your Spot request price of 0.01 is lower than the minimum',
      400,
      true,
      false,
      false,
      false,
    ],
    ['MaxSpotInstanceCountExceeded', 'Max spot instance count exceeded', 400, false, false, false, false],
    [
      'UnfulfillableCapacity',
      'Unable to fulfill capacity due to your request configuration',
      400,
      true,
      false,
      false,
      false,
    ],
    ['InvalidInstanceID.NotFound', "The instance ID 'i-0abc' does not exist", 400, false, true, false, false],
    [
      'InvalidLaunchTemplateId.NotFound',
      'The specified launch template does not exist',
      400,
      false,
      true,
      false,
      false,
    ],
    [
      'ValidationError',
      'AutoScalingGroup name not found - AutoScalingGroup web not found',
      400,
      false,
      true,
      false,
      false,
    ],
    [
      'ValidationError',
      'The instance i-0abc is not part of Auto Scaling group web.',
      400,
      false,
      true,
      false,
      false,
    ],
    ['ValidationError', 'Stack with id web does not exist', 400, false, true, false, false],
    [
      'ValidationError',
      'Max bound, 3, must be greater than or equal to min bound, 4',
      400,
      false,
      false,
      false,
      false,
    ],
    ['Throttling', 'Rate exceeded', 400, false, false, true, true],
    ['RequestLimitExceeded', 'Request limit exceeded.', 503, false, false, true, true],
    ['ThrottlingException', 'Rate exceeded', 400, false, false, true, true],
    ['SlowDown', 'Please reduce your request rate.', 503, false, false, true, true],
    ['InternalError', 'An internal error has occurred', 500, false, false, false, true],
    ['ServiceUnavailable', 'Service unavailable', 503, false, false, false, true],
    [
      'UnauthorizedOperation',
      'You are not authorized to perform this operation.',
      403,
      false,
      false,
      false,
      false,
    ],
    [
      'ResourceContention',
      'You already have a pending update to an Auto Scaling resource',
      400,
      false,
      false,
      false,
      false,
    ],
  ])(
    '%s "%s" (HTTP %i): capacity %s, not found %s, throttle %s, transient %s',
    (code, message, status, capacity, notFound, throttle, transient) => {
      const error = awsError(code, message, status)
      expect(errorCode(error)).toBe(code)
      expect(isCapacityError(error)).toBe(capacity)
      expect(isNotFound(error)).toBe(notFound)
      expect(isThrottle(error)).toBe(throttle)
      expect(isTransient(error)).toBe(transient)
    },
  )

  it('treats a dropped connection as transient and nothing else', () => {
    expect(isTransient(networkError)).toBe(true)
    expect(isNotFound(networkError)).toBe(false)
    expect(isCapacityError(networkError)).toBe(false)
  })

  it.each([undefined, null, 'a string', 42, new Error('plain')])(
    'classifies %s as nothing in particular',
    (error) => {
      expect(errorCode(error)).toBe('Unknown')
      expect([isCapacityError(error), isNotFound(error), isThrottle(error), isTransient(error)]).toEqual([
        false,
        false,
        false,
        false,
      ])
    },
  )

  it('classifies capacity codes that arrive as data in CreateFleet errors', () => {
    expect(isCapacityErrorCode('InsufficientInstanceCapacity')).toBe(true)
    expect(isCapacityErrorCode('InvalidParameterValue')).toBe(false)
  })
})

describe('isQuotaError', () => {
  it('classifies the Spot vCPU limit as a quota, not as a lack of capacity', () => {
    const error = awsError('MaxSpotInstanceCountExceeded', 'Max spot instance count exceeded')
    expect(isQuotaError(error)).toBe(true)
    expect(isCapacityError(error)).toBe(false)
    expect(isQuotaErrorCode('MaxSpotInstanceCountExceeded')).toBe(true)
    expect(isCapacityErrorCode('MaxSpotInstanceCountExceeded')).toBe(false)
  })

  it.each(['InsufficientInstanceCapacity', 'UnauthorizedOperation', 'VcpuLimitExceeded'])(
    'does not classify %s as the Spot quota',
    (code) => {
      expect(isQuotaError(awsError(code))).toBe(false)
    },
  )
})

describe('ignoreNotFound', () => {
  it('resolves to the value when the call succeeds', async () => {
    await expect(ignoreNotFound(Promise.resolve('done'))).resolves.toBe('done')
  })

  it('resolves to undefined when the resource is gone', async () => {
    await expect(
      ignoreNotFound(Promise.reject(awsError('InvalidInstanceID.NotFound'))),
    ).resolves.toBeUndefined()
  })

  it('rejects with any other error unchanged', async () => {
    const throttled = awsError('Throttling')
    await expect(ignoreNotFound(Promise.reject(throttled))).rejects.toBe(throttled)
  })
})

describe('isPermanentLaunchErrorCode', () => {
  it.each([
    ['UnauthorizedOperation', true],
    ['InvalidParameterValue', true],
    ['InvalidParameterCombination', true],
    ['InvalidLaunchTemplateId.NotFound', true],
    ['InvalidAMIID.Malformed', true],
    ['IdempotentParameterMismatch', true],
    ['Unsupported', true],
    ['InsufficientInstanceCapacity', false],
    ['InternalError', false],
    ['RequestLimitExceeded', false],
  ])('%s → %s', (code, permanent) => {
    expect(isPermanentLaunchErrorCode(code)).toBe(permanent)
  })
})

describe('isNotFound reads a message only for a ValidationError', () => {
  it.each([
    // A launch template's own parts that are gone: the launch fails, the instance asked about is not gone.
    ['InvalidAMIID.NotFound', "The image id '[ami-0abc]' does not exist"],
    ['InvalidSubnetID.NotFound', "The subnet ID 'subnet-0abc' does not exist"],
    ['InvalidKeyPair.NotFound', "The key pair 'web' does not exist"],
    ['AccessDenied', 'User is not authorized to perform this action: the policy was not found'],
    ['ResourceContention', 'The instance i-0abc is not part of Auto Scaling group web yet'],
  ])('%s "%s" is not a missing resource, and ignoreNotFound passes it on', async (code, message) => {
    const error = awsError(code, message, 400)
    expect(isNotFound(error)).toBe(false)
    await expect(ignoreNotFound(Promise.reject(error))).rejects.toBe(error)
  })
})
