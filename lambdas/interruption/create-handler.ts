/**
 * The interruption Lambda's composition: parse the invocation (direct EventBridge or SQS), handle each
 * event, report it. Bad input and events that are not spotswap's are logged no-ops; only a transient
 * AWS failure throws, so Lambda retries and the dead-letter destination finally keeps the event.
 */
import { isTransient } from '../aws/errors.ts'
import { parseGlobalConfig } from '../core/config/global-config.ts'
import { INTERRUPTION_EVENT_ATTEMPTS } from '../core/constants.ts'
import { parseInvocation } from '../core/events/invocation.ts'
import { readKillSwitch } from '../kill-switch.ts'
import type { InterruptionDeps } from './deps.ts'
import { TransientCloudError } from './execute.ts'
import {
  type HandlerContext,
  handleEvent,
  INTERRUPTION_EVENTS,
  type InterruptionItem,
  resultFor,
} from './handle-event.ts'
import { type EventResult, reportConfigErrors, reportEvent } from './report.ts'

export interface InterruptionSummary {
  readonly results: readonly EventResult[]
}

export type InterruptionHandler = (event: unknown, context?: unknown) => Promise<InterruptionSummary>

const isRetryable = (error: unknown): boolean => error instanceof TransientCloudError || isTransient(error)

/**
 * One event, tried again at once when an attempt fails transiently or a marker could not be verified
 * (INTERRUPTION_EVENT_ATTEMPTS says why): each attempt observes afresh and decides again, as Lambda's own
 * retry would, so what the first one did is not repeated blindly. The last attempt's answer stands.
 */
const handleWithRetry = async (
  deps: InterruptionDeps,
  run: HandlerContext,
  item: InterruptionItem,
): Promise<EventResult> => {
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= INTERRUPTION_EVENT_ATTEMPTS
    let why: string
    try {
      const result = await handleEvent(run, item)
      if (last || result.reason !== 'markers-unverifiable') return result
      why = result.detail
    } catch (error) {
      if (last || !isRetryable(error)) throw error
      why = String(error)
    }
    deps.log.info('interruption event tried again at once', { messageId: item.messageId, attempt, why })
  }
}

export const createHandler = (deps: InterruptionDeps): InterruptionHandler => {
  const { config, errors } = parseGlobalConfig(deps.env)
  reportConfigErrors(deps, deps.env.AWS_REGION ?? 'unknown', errors)
  const context: HandlerContext = {
    deps,
    config,
    fatalSettings: errors.filter((error) => error.fatal).map((error) => error.name),
  }

  const processItem = async (item: InterruptionItem, run: HandlerContext): Promise<EventResult> => {
    const started = deps.now().getTime()
    let result: EventResult
    try {
      result = await handleWithRetry(deps, run, item)
    } catch (error) {
      if (error instanceof TransientCloudError) throw error
      if (isTransient(error))
        throw new TransientCloudError(`an AWS read failed transiently: ${String(error)}`, { cause: error })
      // Not retryable (a bug, missing permission): retrying would fail the same way, so report and move on.
      const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      result = resultFor(item, { outcome: 'failed', reason: 'unexpected-error', detail })
    }
    reportEvent(deps, result, deps.now().getTime() - started)
    return result
  }

  return async (event) => {
    const items = parseInvocation(INTERRUPTION_EVENTS, event)
    // Read once per invocation, so the switch takes effect on the next warning (core/region/kill-switch.ts).
    const killSwitch =
      items.length > 0 ? await readKillSwitch(deps.killSwitch, deps.log, deps.metrics) : undefined
    const run = { ...context, killSwitch: killSwitch?.mode ?? 'off' }
    const settled = await Promise.allSettled(items.map((item) => processItem(item, run)))
    const transient = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []))
    if (transient.length > 0) {
      // The whole invocation is retried; the events that succeeded are idempotent, so that is harmless.
      throw transient.length === 1
        ? transient[0]
        : new TransientCloudError(`${transient.length} of ${items.length} events failed transiently`, {
            cause: transient,
          })
    }
    return { results: settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])) }
  }
}
