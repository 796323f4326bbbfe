/**
 * One event, end to end: check it is ours to handle, observe the instance, decide (pure), act.
 * Returns what happened; the caller reports it. Throws only TransientCloudError (or a transient
 * AWS error from a read), which the handler turns into a Lambda retry.
 */
import type { GlobalConfig } from '../core/config/config.ts'
import { isRegionCovered } from '../core/config/managed.ts'
import { leaveAtDeadline } from '../core/ecs/interruption-drain.ts'
import {
  interruptionDeadline,
  rebalanceRecommendation,
  spotInterruptionWarning,
} from '../core/events/definitions.ts'
import type { ParsedInvocationItem } from '../core/events/invocation.ts'
import { createEventRegistry } from '../core/events/registry.ts'
import { concernsManagedGroup, type InterruptionSignal } from '../core/interruption/decision.ts'
import { decideInterruption } from '../core/interruption/interruption.ts'
import { DIMENSION_REGION, Metric } from '../core/metric-names.ts'
import type { KillSwitchMode } from '../core/region/kill-switch.ts'
import { reportForgedMarkers } from '../verify-markers.ts'
import type { InterruptionDeps } from './deps.ts'
import { drainWarnedMember } from './drain-ecs.ts'
import { executeActions } from './execute.ts'
import { observeInstance } from './observe.ts'
import { type EventResult, reportConfigErrors } from './report.ts'

export const INTERRUPTION_EVENTS = createEventRegistry([
  spotInterruptionWarning,
  rebalanceRecommendation,
  interruptionDeadline,
])

export type InterruptionItem = ParsedInvocationItem<typeof INTERRUPTION_EVENTS.definitions>

type Outcome = Pick<EventResult, 'outcome' | 'reason' | 'detail'> &
  Partial<Pick<EventResult, 'group' | 'managed' | 'actions'>>

/** The identifying fields of a result, as far as the event could be read. */
export const resultFor = (item: InterruptionItem, outcome: Outcome): EventResult => {
  const { event } = item
  const envelope = event.kind === 'malformed' ? undefined : event.envelope
  return {
    messageId: item.messageId,
    eventId: envelope?.id,
    kind: event.kind,
    region: envelope?.region,
    instanceId: 'detail' in event ? event.detail.instanceId : undefined,
    group: undefined,
    managed: false,
    actions: [],
    ...outcome,
  }
}

export interface HandlerContext {
  readonly deps: InterruptionDeps
  readonly config: GlobalConfig
  /** Names of invalid settings that decide which groups are touched; while set, nothing is touched. */
  readonly fatalSettings: readonly string[]
  /**
   * The kill switch as this invocation read it: anything but off and the decision is reported, not
   * carried out (EC2 takes the instance either way; the group backfills through its health check).
   */
  readonly killSwitch?: KillSwitchMode
}

const handleSignal = async (
  { deps, config, fatalSettings, killSwitch = 'off' }: HandlerContext,
  item: InterruptionItem,
  signal: InterruptionSignal,
  region: string,
): Promise<EventResult> => {
  // REGIONS globs; empty means every region. Events from other regions are not spotswap's business.
  if (!isRegionCovered(region, config)) {
    return resultFor(item, {
      outcome: 'ignored',
      reason: 'region-not-enabled',
      detail: `${region} is not in REGIONS`,
    })
  }
  if (fatalSettings.length > 0) {
    const detail = `invalid ${fatalSettings.join(', ')}: no group is touched until it is fixed`
    return resultFor(item, { outcome: 'ignored', reason: 'configuration-invalid', detail })
  }
  const cloud = deps.cloudFor(region)
  const snapshot = await observeInstance(cloud, signal, config, deps.now(), deps.requestRuns !== undefined)
  reportForgedMarkers(deps, region, snapshot.untrustedMarkers ?? [])
  const decision = decideInterruption(signal, snapshot)
  reportConfigErrors(deps, region, decision.configErrors)
  const decided = { group: decision.group, managed: concernsManagedGroup(decision), detail: decision.detail }
  if (decision.outcome === 'skip') {
    return resultFor(item, { ...decided, outcome: 'skipped', reason: decision.reason })
  }
  if (killSwitch !== 'off') {
    deps.metrics.emit({ [DIMENSION_REGION]: region }, [
      { name: Metric.ActionsHeldByKillSwitch, unit: 'Count', value: decision.actions.length },
    ])
    const held = decision.actions.map((a) => a.kind).join(', ')
    const detail = `kill switch ${killSwitch}: held ${held} (${decision.reason})`
    return resultFor(item, { ...decided, outcome: 'skipped', reason: 'kill-switch', detail })
  }
  if (config.dryRun) {
    return resultFor(item, {
      ...decided,
      outcome: 'dry-run',
      reason: decision.reason,
      actions: decision.actions,
    })
  }
  // A warned member of a group ECS manages is drained first, so ECS moves its tasks in time (drain-ecs.ts).
  const drained = await drainWarnedMember(cloud, signal, snapshot)
  if (drained !== undefined)
    deps.log.info('ECS drain of a warned member', { instanceId: signal.instanceId, drained: drained.detail })
  // Draining, it stays until its deadline so ECS starts its tasks elsewhere first (core/ecs/interruption-drain.ts).
  const deferred =
    drained?.draining === true && deps.requestDeadline !== undefined && deps.requestRuns !== undefined
      ? leaveAtDeadline(decision.actions, signal, snapshot.now)
      : undefined
  const execution = await executeActions(
    { cloud, requestRuns: deps.requestRuns, requestDeadline: deps.requestDeadline },
    deferred ?? decision.actions,
  )
  const actions = execution.completed
  switch (execution.status) {
    case 'done':
      return resultFor(item, { ...decided, outcome: 'acted', reason: decision.reason, actions })
    case 'raced':
      // Between our read and our write the instance left its group or died: the work was done by someone else.
      return resultFor(item, {
        ...decided,
        outcome: 'skipped',
        reason: 'already-handled',
        detail: execution.error,
        actions,
      })
    case 'failed':
      return resultFor(item, {
        ...decided,
        outcome: 'failed',
        reason: `${execution.failedAction.kind}-failed`,
        detail: execution.error,
        actions,
      })
  }
}

export const handleEvent = (context: HandlerContext, item: InterruptionItem): Promise<EventResult> => {
  const { event } = item
  switch (event.kind) {
    case 'malformed':
      return Promise.resolve(
        resultFor(item, { outcome: 'invalid', reason: 'malformed-event', detail: event.problem }),
      )
    case 'unrecognized': {
      const detail = `${event.envelope.source} / ${event.envelope.detailType} is not an interruption event`
      return Promise.resolve(resultFor(item, { outcome: 'ignored', reason: 'unrecognized-event', detail }))
    }
    case 'spot-interruption':
      return handleSignal(
        context,
        item,
        { kind: event.kind, ...event.detail, warnedAt: event.envelope.time },
        event.envelope.region,
      )
    case 'rebalance-recommendation':
      return handleSignal(context, item, { kind: event.kind, ...event.detail }, event.envelope.region)
    case 'interruption-deadline':
      return handleSignal(
        context,
        item,
        {
          kind: 'spot-interruption',
          instanceId: event.detail.instanceId,
          instanceAction: 'terminate',
          deadline: true,
        },
        event.envelope.region,
      )
  }
}
