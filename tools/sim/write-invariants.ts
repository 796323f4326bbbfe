/**
 * The invariants judged from what an invocation's writes touched (touches.ts) rather than from group
 * states: 5 (`untouchable-touched`), 6 (`retired-twice`, `double-replacement`), 7
 * (`retired-before-serving`) and 3 (`orphan`), whose excuses depend on which requests failed.
 */
import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import { isManaged } from '../../lambdas/core/config/managed.ts'
import { ORPHAN_SCHEDULE_PERIODS } from '../../lambdas/core/constants.ts'
import { GROUP_NAME_TAG } from './asg-members.ts'
import { isEcsDrainWrite } from './ecs-touches.ts'
import { effectiveConfig } from './group-state.ts'
import {
  type RegionSnapshot,
  runCovers,
  type StepContext,
  type StepRun,
  type Violation,
} from './invariant-ledger.ts'
import { isUnverifiableLaunch } from './launch-bound-invariant.ts'
import { isRunningOrPending, type SimRegion } from './state.ts'
import type { WriteRecord } from './touches.ts'

const untouchableReasons = (config: GlobalConfig, write: WriteRecord): string[] => {
  if (write.kind === 'group')
    return isManaged(write.tags, config) ? [] : [`named group ${write.group}, which spotswap does not manage`]
  if (write.kind !== 'instance') return []
  const reasons: string[] = []
  // Handling an interruption EC2 announced (the group backfills at once, its hook drains) is no harm done
  // to a protected instance: EC2 takes it two minutes later whatever its protections.
  const interrupted = write.warned && write.actor === 'interruption'
  if (write.protectedFromScaleIn && !interrupted && !isEcsDrainWrite(write))
    reasons.push(`protected from scale-in${write.tagKeys ? ` (tags ${write.tagKeys.join(', ')})` : ''}`)
  if (write.terminationProtected && !interrupted) reasons.push('protected from API termination')
  if (write.warmPoolOf !== undefined) reasons.push(`in the warm pool of ${write.warmPoolOf}`)
  if (write.ownerKeeps === true)
    reasons.push("the owner's (launched by someone else, or detached by the owner)")
  if (write.group !== undefined && write.tags !== undefined && !isManaged(write.tags, config))
    reasons.push(`a member of ${write.group}, which spotswap does not manage`)
  return reasons.length === 0 ? [] : [`named ${write.instanceId}, ${reasons.join(' and ')}`]
}

/** Invariants 5, 6 and 7. */
export const checkWrites = (
  { config, ledger }: StepContext,
  writes: readonly WriteRecord[],
  at: string,
): Violation[] => {
  const violations: Violation[] = []
  for (const write of writes) {
    if (write.kind === 'group' || write.kind === 'instance')
      for (const reason of untouchableReasons(config, write))
        violations.push({
          at: at,
          group: write.group ?? '',
          invariant: 'untouchable-touched',
          detail: `${write.operation} ${reason}`,
        })
    if (write.kind === 'retire') {
      const first = ledger.retired.get(write.instanceId)
      if (first === undefined) ledger.retired.set(write.instanceId, write.operation)
      else
        violations.push({
          at: at,
          group: write.group ?? '',
          invariant: 'retired-twice',
          detail: `on-demand ${write.instanceId} retired by ${write.operation} after ${first} had retired it`,
        })
    }
    if (write.kind === 'retired-before-serving')
      violations.push({
        at: at,
        group: write.group,
        invariant: 'retired-before-serving',
        detail: write.unwarned
          ? `${write.operation} took spot member ${write.instanceId} out of ${write.group} without a decrement though EC2 never warned it of an interruption`
          : `${write.operation} took ${write.instanceId} out of ${write.group} while its replacement(s) did not serve: ${write.replacements.join(', ')}`,
      })
    if (write.kind === 'launch' && write.alongside.length > 0)
      violations.push({
        at: at,
        group: write.group,
        invariant: 'double-replacement',
        detail: `${write.instanceId} launched to replace ${write.partner}, which ${write.alongside.join(', ')} already replace(s)`,
      })
  }
  return violations
}

/**
 * Why a replacer run could not be expected to settle an instance of `group`: it died, a read failed (the
 * run stops before acting), or a write about the instance, its group or another instance launched for
 * its group failed transiently (a swap's marker is signed per instance, so its tags go out one instance
 * per request, and the first that fails stops the group's swap). A permanent failure (access denied, a
 * request AWS refuses) excuses nothing: the engine must not retry it forever.
 */
const excuses = (region: SimRegion, run: StepRun, writes: readonly WriteRecord[]) => {
  const failed = writes.filter((w) => w.kind === 'failed')
  if (run.session.crashed || run.session.failedCalls > failed.length) return () => true
  const launchedFor = (id: string) => region.instances.get(id)?.costGroup
  return (instanceId: string, group: string | undefined): boolean =>
    failed.some(
      (w) =>
        w.transient &&
        (w.instanceIds.includes(instanceId) ||
          (group !== undefined &&
            (w.group === group || w.instanceIds.some((id) => launchedFor(id) === group)))),
    )
}

/**
 * Invariant 3, after a whole-region replacer run: a spot instance launched for a group that the run
 * found older than the age at which the engine gives up on attaching it (grace + 2 schedule periods, so
 * it is settled within grace + 3 when runs succeed) must be attached or terminated by that run; one
 * launched for a group spotswap does not manage (any more) by any run. Unless a failure excuses it.
 */
export const checkOrphans = (
  { config, region, ledger }: StepContext,
  before: RegionSnapshot,
  run: StepRun,
  writes: readonly WriteRecord[],
  at: string,
): Violation[] => {
  const excused = excuses(region, run, writes)
  const violations: Violation[] = []
  for (const instance of region.instances.values()) {
    if (instance.origin !== 'spotswap' || !isRunningOrPending(instance)) continue
    // Warned instances are EC2's to take; attached ones (even if detached since) were never orphans.
    if (instance.interruptAtMs !== undefined || instance.tags[GROUP_NAME_TAG] !== undefined) continue
    if (region.groupOf(instance.id) !== undefined || ledger.orphans.has(instance.id)) continue
    // One spotswap cannot verify is never attached nor terminated by design; launches-beyond-budget bounds them.
    if (isUnverifiableLaunch(region, instance)) continue
    const group = region.groups.get(instance.costGroup ?? '')
    // A lane's run answers for its lane's groups; launches for a group gone or unmanaged are lane 0's.
    const stray = group === undefined || before.states.get(group.name)?.managed !== true
    if (!runCovers(run, instance.costGroup ?? '', stray)) continue
    const ageSeconds = (run.startedMs - instance.launchMs) / 1000
    let limitSeconds = 0
    if (group !== undefined && before.states.get(group.name)?.managed === true) {
      const grace = effectiveConfig(config, group).gracePeriodSeconds ?? group.healthCheckGracePeriodSeconds
      limitSeconds = grace + (ORPHAN_SCHEDULE_PERIODS - 1) * config.scheduleMinutes * 60
    }
    if (ageSeconds <= limitSeconds || excused(instance.id, instance.costGroup)) continue
    ledger.orphans.add(instance.id)
    violations.push({
      at: at,
      group: instance.costGroup ?? '',
      invariant: 'orphan',
      detail: `${instance.id} (${instance.type} in ${instance.zone}), launched ${new Date(instance.launchMs).toISOString()}, is neither attached nor terminated by a replacer run that started ${Math.round(ageSeconds)}s after its launch (limit ${limitSeconds}s)`,
    })
  }
  return violations
}
