/**
 * Errors shaped like AWS SDK v3 ServiceExceptions (name = the service's error code, `$fault`,
 * `$metadata.httpStatusCode`), so lambdas/aws/errors.ts classifies simulated failures exactly as it
 * classifies real ones. Messages follow the services' own wording where the engine's classifier reads it.
 */

export interface SimAwsError extends Error {
  readonly $fault: 'client' | 'server'
  readonly $metadata: { readonly httpStatusCode: number; readonly requestId: string }
  readonly Code: string
}

export const simAwsError = (code: string, httpStatusCode: number, message: string): SimAwsError =>
  Object.assign(new Error(message), {
    name: code,
    Code: code,
    $fault: httpStatusCode >= 500 ? ('server' as const) : ('client' as const),
    $metadata: { httpStatusCode, requestId: 'simulated' },
  })

/** Auto Scaling reports every bad request, missing things included, as a 400 ValidationError. */
export const validationError = (message: string): SimAwsError => simAwsError('ValidationError', 400, message)

export const instanceNotFound = (id: string): SimAwsError =>
  simAwsError('InvalidInstanceID.NotFound', 400, `The instance ID '${id}' does not exist`)

export const groupNotFound = (name: string): SimAwsError =>
  validationError(`AutoScalingGroup name not found - AutoScalingGroup '${name}' not found`)

/** Elastic Load Balancing names a missing target group or classic load balancer by its own codes. */
export const targetGroupNotFound = (arn: string): SimAwsError =>
  simAwsError('TargetGroupNotFound', 400, `One or more target groups not found: ${arn}`)

export const loadBalancerNotFound = (name: string): SimAwsError =>
  simAwsError('LoadBalancerNotFound', 400, `There is no ACTIVE Load Balancer named '${name}'`)

/** EC2's throttling error (HTTP 503 on the Query API). */
export const requestLimitExceeded = (operation: string): SimAwsError =>
  simAwsError('RequestLimitExceeded', 503, `Request limit exceeded for ${operation}.`)

export const terminationProtectedError = (id: string): SimAwsError =>
  simAwsError(
    'OperationNotPermitted',
    400,
    `The instance '${id}' may not be terminated. Modify its 'disableApiTermination' instance attribute and try again.`,
  )

/** Server-side failures as each service names them; the ones injected by `faults.apiErrorRate`. */
export const TRANSIENT_ERRORS: Readonly<Record<string, readonly (readonly [string, number, string])[]>> = {
  ec2: [
    ['InternalError', 500, 'An internal error has occurred'],
    ['Unavailable', 503, 'The server is overloaded and cannot handle the request'],
    ['RequestLimitExceeded', 503, 'Request limit exceeded.'],
  ],
  autoscaling: [
    ['InternalFailure', 500, 'An internal error has occurred'],
    ['ServiceUnavailable', 503, 'Service is unavailable'],
    ['Throttling', 400, 'Rate exceeded'],
  ],
  elasticloadbalancing: [
    ['InternalFailure', 500, 'An internal error has occurred'],
    ['ServiceUnavailable', 503, 'Service is unavailable'],
    ['Throttling', 400, 'Rate exceeded'],
  ],
  cloudformation: [['Throttling', 400, 'Rate exceeded']],
  pricing: [['InternalErrorException', 500, 'An internal error has occurred']],
}

/**
 * Thrown by every call of an invocation after its simulated process died. It is not an AWS error: the
 * engine never sees it in a real crash, because nothing of the engine runs after one; the simulator
 * discards whatever the crashed invocation returns.
 */
export class SimulatedCrashError extends Error {
  override readonly name = 'SimulatedCrashError'
  constructor(readonly operation: string) {
    super(`the simulated process crashed during ${operation}`)
  }
}
