/**
 * Fault injection: what may go wrong with one API request besides what the simulated services decide
 * themselves. Hooks rather than flags, so chaos runs can script exact failures ("crash right after the
 * third AttachInstances"); `randomFaults` is the scenario file's `faults` block.
 */

import { simAwsError, TRANSIENT_ERRORS } from './errors.ts'
import type { Rng } from './rng.ts'

/** Who is calling: one Lambda invocation (a region run of the replacer, one interruption event). */
export interface Session {
  readonly id: number
  readonly actor: 'replacer' | 'interruption'
  readonly region: string
  /** Set once the simulated process died; every later call of the session fails without effect. */
  crashed: boolean
  /** Requests that failed after the SDK's retries (injected errors, throttling, service refusals). */
  failedCalls: number
  /** When Lambda stops the invocation (its function timeout), epoch ms: a request after it never starts. */
  readonly stopsAtMs?: number
  /** Set when Lambda stopped it at its timeout (then `crashed` too: Lambda ends it as it ends a crash). */
  timedOut?: boolean
  /** A replacer run's fan-out message as SQS holds it: until when no other run can receive it. */
  messageHiddenUntilMs?: () => number
  /** Writes of the run that took effect once its message could be handed out again (lease-invariant.ts). */
  writesPastLease?: { readonly operation: string; readonly group: string | undefined }[]
}

export interface ApiRequest {
  readonly session: Session
  /** `service:Operation`, as the AWS adapter counts it. */
  readonly operation: string
  /** The group the request is about, when it names one. */
  readonly group: string | undefined
}

export type FaultDecision =
  | { readonly kind: 'none' }
  /** The request fails with this error and has no effect. */
  | { readonly kind: 'error'; readonly error: Error }
  /** The process dies before the request reaches AWS. */
  | { readonly kind: 'crash-before' }
  /** The process dies after AWS applied the request but before the answer is read. */
  | { readonly kind: 'crash-after' }

export interface FaultHooks {
  decide(request: ApiRequest): FaultDecision
}

export interface FaultConfig {
  /** Probability that a request fails with a server-side error, as the engine sees it after SDK retries. */
  readonly apiErrorRate: number
  /** Apply EC2's published token buckets (with the SDK's retries and backoff). */
  readonly throttle: boolean
  /** Probability that the calling process dies at a request (half before it takes effect, half after). */
  readonly crashRate: number
}

export const NO_FAULTS: FaultConfig = { apiErrorRate: 0, throttle: true, crashRate: 0 }

const NONE: FaultDecision = { kind: 'none' }

export const randomFaults = (config: FaultConfig, rng: Rng): FaultHooks => ({
  decide: ({ operation }) => {
    if (config.crashRate > 0 && rng.chance(config.crashRate))
      return { kind: rng.chance(0.5) ? 'crash-before' : 'crash-after' }
    if (config.apiErrorRate > 0 && rng.chance(config.apiErrorRate)) {
      const service = operation.split(':')[0] ?? 'ec2'
      const choices = TRANSIENT_ERRORS[service] ?? TRANSIENT_ERRORS.ec2 ?? []
      const [code, status, message] = rng.pick(choices) ?? [
        'InternalError',
        500,
        'An internal error has occurred',
      ]
      return { kind: 'error', error: simAwsError(code, status, message) }
    }
    return NONE
  },
})
