/**
 * Every simulated API request passes through here: it is counted as the AWS adapter counts it (one per
 * request, not per retry), takes simulated time, meets EC2's token buckets with the SDK's retries and
 * backoff, and may fail or crash its process as the fault hooks decide.
 */
import { isNotFound } from '../../lambdas/aws/errors.ts'
import { SDK_MAX_ATTEMPTS } from '../../lambdas/aws/limits.ts'
import type { SimClock } from './clock.ts'
import { API_CALL_MS, SDK_MAX_DELAY_MS, SDK_THROTTLE_BASE_DELAY_MS } from './constants.ts'
import { requestLimitExceeded, SimulatedCrashError } from './errors.ts'
import type { FaultHooks, Session } from './faults.ts'
import type { Rng } from './rng.ts'
import { Ec2Throttle } from './throttle.ts'

/** Requests per `service:Operation`, overall and per group the request was about. */
export class ApiCounter {
  readonly total = new Map<string, number>()
  readonly byGroup = new Map<string, Map<string, number>>()
  /**
   * Set by the scale probe: the CPU spent answering requests (the simulated services building their
   * answers, the gate's own bookkeeping) is added up in `cpuMicros`, so the engine's share (what the
   * Lambda pays, the adapter's conversions included) is the process's CPU minus it. Off, it costs nothing.
   */
  meterCpu = false
  cpuMicros = 0
  /**
   * Metered parts while metering: each costs the process two `process.cpuUsage()` calls, partly outside
   * what it counts, which the scale probe takes back from the engine's share (scale-probe.ts).
   */
  meteredParts = 0

  count(operation: string, group: string | undefined): void {
    this.total.set(operation, (this.total.get(operation) ?? 0) + 1)
    if (group === undefined) return
    let counts = this.byGroup.get(group)
    if (counts === undefined) {
      counts = new Map()
      this.byGroup.set(group, counts)
    }
    counts.set(operation, (counts.get(operation) ?? 0) + 1)
  }
}

export interface GateOptions {
  readonly group?: string | undefined
  /** Instances the request acts on, for EC2's resource buckets. */
  readonly resources?: number
  /**
   * A not-found answer is what the caller asks to learn (is this stack, this instance still there?), not
   * a failed request: it does not count among the session's failed calls.
   */
  readonly notFoundIsAnAnswer?: boolean
}

export interface ApiGateDeps {
  readonly clock: SimClock
  readonly faults: FaultHooks
  readonly throttle: boolean
  /** Backoff jitter. */
  readonly rng: Rng
  readonly counter: ApiCounter
}

export class ApiGate {
  private readonly ec2 = new Ec2Throttle()
  /** Inside a metered part: a nested one is already counted. */
  private metering = false

  constructor(private readonly deps: ApiGateDeps) {}

  /**
   * Runs `effect` as the request `operation` of `session`, or throws what the caller would have seen.
   * Options given as a function are worked out inside the metered part: they are the simulator's work
   * (which group a request belongs to), not the engine's.
   */
  call<T>(
    session: Session,
    operation: string,
    effect: () => T,
    options: GateOptions | (() => GateOptions) = {},
  ): T {
    return this.metered(() =>
      this.pass(session, operation, effect, typeof options === 'function' ? options() : options),
    )
  }

  /**
   * Runs `work` with its CPU counted as the simulated services' (`counter.cpuMicros`) while the scale
   * probe meters: everything the simulator does for one request goes through here, once.
   */
  metered<T>(work: () => T): T {
    const { counter } = this.deps
    // Nested (a write's records around its request): the outer part already counts it.
    if (!counter.meterCpu || this.metering) return work()
    this.metering = true
    counter.meteredParts++
    const started = process.cpuUsage()
    try {
      return work()
    } finally {
      const used = process.cpuUsage(started)
      counter.cpuMicros += used.user + used.system
      this.metering = false
    }
  }

  private pass<T>(session: Session, operation: string, effect: () => T, options: GateOptions): T {
    if (session.crashed) throw new SimulatedCrashError(operation)
    const { clock, counter } = this.deps
    counter.count(operation, options.group)
    clock.advanceBy(API_CALL_MS)
    this.waitForTokens(session, operation, options.resources ?? 0)
    // Lambda stops an invocation at its timeout wherever it is: the request never reaches AWS.
    if (session.stopsAtMs !== undefined && clock.now > session.stopsAtMs) {
      session.crashed = true
      session.timedOut = true
      throw new SimulatedCrashError(operation)
    }
    const decision = this.deps.faults.decide({ session, operation, group: options.group })
    if (decision.kind === 'error') {
      session.failedCalls++
      throw decision.error
    }
    if (decision.kind === 'crash-before') {
      session.crashed = true
      throw new SimulatedCrashError(operation)
    }
    let result: T
    try {
      result = effect()
    } catch (error) {
      if (!(options.notFoundIsAnAnswer === true && isNotFound(error))) session.failedCalls++
      throw error
    }
    if (decision.kind === 'crash-after') {
      session.crashed = true
      throw new SimulatedCrashError(operation)
    }
    return result
  }

  /** The SDK's standard retry mode: throttled attempts back off exponentially with full jitter. */
  private waitForTokens(session: Session, operation: string, resources: number): void {
    if (!this.deps.throttle) return
    const [service, action = ''] = operation.split(':')
    if (service !== 'ec2') return
    const { clock, rng } = this.deps
    for (let attempt = 1; ; attempt++) {
      if (this.ec2.admit(action, clock.now, resources)) return
      if (attempt >= SDK_MAX_ATTEMPTS) {
        session.failedCalls++
        throw requestLimitExceeded(action)
      }
      const ceiling = Math.min(SDK_MAX_DELAY_MS, SDK_THROTTLE_BASE_DELAY_MS * 2 ** (attempt - 1))
      clock.advanceBy(Math.floor(rng.next() * ceiling) + API_CALL_MS)
    }
  }
}
