/**
 * The one module that classifies AWS errors. Callers ask "is this a capacity problem / a missing
 * resource / throttling?" here instead of matching codes and messages inline.
 */

interface AwsErrorShape {
  readonly name?: unknown
  readonly Code?: unknown
  readonly code?: unknown
  readonly message?: unknown
  readonly $fault?: unknown
  readonly $metadata?: { readonly httpStatusCode?: unknown }
}

const shape = (error: unknown): AwsErrorShape =>
  typeof error === 'object' && error !== null ? (error as AwsErrorShape) : {}

/** The service's error code: SDK v3 puts it in `name`; XML protocols sometimes also in `Code`. */
export const errorCode = (error: unknown): string => {
  const { name, Code, code } = shape(error)
  for (const candidate of [Code, name, code]) {
    if (typeof candidate === 'string' && candidate.length > 0 && candidate !== 'Error') return candidate
  }
  return 'Unknown'
}

export const errorMessage = (error: unknown): string => {
  const { message } = shape(error)
  return typeof message === 'string' ? message : String(error)
}

const httpStatus = (error: unknown): number | undefined => {
  const status = shape(error).$metadata?.httpStatusCode
  return typeof status === 'number' ? status : undefined
}

/** Codes meaning "no spot capacity for this request right now": try other pools, not the same one again. */
const CAPACITY_CODES = new Set([
  'InsufficientInstanceCapacity',
  'InsufficientCapacity',
  'InsufficientHostCapacity',
  'InsufficientFreeAddressesInSubnet',
  'SpotMaxPriceTooLow',
  'UnfulfillableCapacity',
  'capacity-not-available',
])

/** For codes that arrive as data (CreateFleet's `Errors` array) rather than as exceptions. */
export const isCapacityErrorCode = (code: string): boolean => CAPACITY_CODES.has(code)

/**
 * CreateFleet errors that the same request will meet again: a permission, a parameter, a launch template
 * or image that is wrong or gone, a configuration the type does not support, a client token reused with
 * other parameters (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html).
 * Retrying them every run only repeats the refusal, so they back off like a lack of capacity.
 */
const PERMANENT_LAUNCH_PREFIXES = [
  'UnauthorizedOperation',
  'InvalidParameter',
  'InvalidLaunchTemplate',
  'InvalidAMIID',
  'InvalidSubnetID',
  'InvalidGroup',
  'InvalidKeyPair',
  'InvalidBlockDeviceMapping',
  'InvalidSnapshot',
  'InvalidInstanceType',
  'IdempotentParameterMismatch',
  'Unsupported',
  'AuthFailure',
  'OptInRequired',
  'PendingVerification',
]

export const isPermanentLaunchErrorCode = (code: string): boolean =>
  PERMANENT_LAUNCH_PREFIXES.some((prefix) => code.startsWith(prefix))

export const isCapacityError = (error: unknown): boolean => isCapacityErrorCode(errorCode(error))

/**
 * The account's Spot vCPU quota for the type's family group is reached in the region: no other pool helps,
 * only a running spot instance ending or a raised quota
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-spot-limits.html: "Max spot instance count exceeded").
 */
const QUOTA_CODES = new Set(['MaxSpotInstanceCountExceeded'])

export const isQuotaErrorCode = (code: string): boolean => QUOTA_CODES.has(code)

export const isQuotaError = (error: unknown): boolean => isQuotaErrorCode(errorCode(error))

/**
 * A client token reused with other parameters: EC2 accepted an earlier request with this token (so that
 * launch may exist) and refuses this one for as long as the token lives
 * (https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-idempotency.html).
 */
export const isIdempotentParameterMismatch = (error: unknown): boolean =>
  errorCode(error) === 'IdempotentParameterMismatch'

const NOT_FOUND_CODES = new Set([
  'InvalidInstanceID.NotFound',
  'InvalidLaunchTemplateId.NotFound',
  'InvalidLaunchTemplateName.NotFoundException',
  'InvalidLaunchTemplateId.VersionNotFound',
  'ResourceNotFoundException',
])

/**
 * Auto Scaling and CloudFormation report missing things as a generic ValidationError, so the message is
 * the only signal: "AutoScalingGroup name not found", "The instance i-1 is not part of Auto Scaling group
 * web", "Stack with id web does not exist", "Instance Id not found".
 */
const NOT_FOUND_MESSAGE = /not found|not part of auto scaling group|does not exist/i

export const isNotFound = (error: unknown): boolean => {
  const code = errorCode(error)
  if (NOT_FOUND_CODES.has(code)) return true
  return code === 'ValidationError' && NOT_FOUND_MESSAGE.test(errorMessage(error))
}

const THROTTLE_CODES = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'SlowDown',
])

export const isThrottle = (error: unknown): boolean => THROTTLE_CODES.has(errorCode(error))

/** Connection-level failures that a later attempt may not see. */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'TimeoutError'])

/** Worth retrying later: throttling, a server-side (5xx) failure, or a dropped connection. */
export const isTransient = (error: unknown): boolean => {
  if (isThrottle(error)) return true
  const status = httpStatus(error)
  if (status !== undefined && status >= 500) return true
  if (shape(error).$fault === 'server') return true
  return NETWORK_CODES.has(errorCode(error))
}

/**
 * VerifyMac's answer to a MAC that does not match the message and key: it fails rather than answering
 * `MacValid: false` (https://docs.aws.amazon.com/kms/latest/APIReference/API_VerifyMac.html).
 */
export const isInvalidMac = (error: unknown): boolean => errorCode(error) === 'KMSInvalidMacException'

/** Resolves to undefined when the resource is gone; every other failure still rejects. */
export const ignoreNotFound = async <T>(promise: Promise<T>): Promise<T | undefined> => {
  try {
    return await promise
  } catch (error) {
    if (isNotFound(error)) return undefined
    throw error
  }
}

/** A launch-configuration group whose launch configuration cannot be read, so no spot twin can be built. */
export class LaunchConfigurationNotFoundError extends Error {
  override readonly name = 'LaunchConfigurationNotFoundError'
  constructor(
    readonly launchConfigurationName: string,
    options?: { cause?: unknown },
  ) {
    super(`launch configuration ${launchConfigurationName} does not exist`, options)
  }
}

/** A launch request with neither a launch template nor a launch configuration: nothing to launch from. */
export class MissingLaunchSourceError extends Error {
  override readonly name = 'MissingLaunchSourceError'
  constructor(
    readonly groupName: string,
    options?: { cause?: unknown },
  ) {
    super(`group ${groupName} has neither a launch template nor a launch configuration`, options)
  }
}
