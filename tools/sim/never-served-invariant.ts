/**
 * Invariant `never-served`: no member that spotswap attached stays in its group without ever serving past
 * its swap's deadline, plus the time the engine takes to act on it. A replacement that never passes its
 * load balancers' health checks is InService for Auto Scaling (EC2 health checks, the default, never
 * replace it), so nothing but spotswap removes it, whatever state its swap was left in (closed, crashed,
 * its pair broken by a scale-in, its partner interrupted).
 *
 * Memory across steps: a member seen serving (InService and healthy in every load balancer of its group)
 * after any step is remembered as having served. The deadline is the pair's allowance (swap-allowance.ts:
 * the engine's longest health deadline, a schedule period and a queue's slack) after the attach, plus
 * ORPHAN_SCHEDULE_PERIODS - 1 schedule periods and GRACE_SLACK_SECONDS: once its pair is released the
 * engine no longer knows when it was attached, only the latest its launch time allows (an attach comes
 * before the launch's orphan deadline, core/swap/never-served.ts). It is
 * judged only after a replacer run of the group that neither crashed nor saw a failed request: a run that
 * failed may not have finished, and the next clean one must. Never blamed on spotswap: a member the owner
 * protected (from scale-in or from API termination: spotswap may not take it out), a member of a group it
 * no longer manages, a member the owner keeps.
 */

import { isManaged } from '../../lambdas/core/config/managed.ts'
import { GRACE_SLACK_SECONDS, ORPHAN_SCHEDULE_PERIODS } from '../../lambdas/core/constants.ts'
import type { Session } from './faults.ts'
import {
  type InvariantLedger,
  runCovers,
  type StepContext,
  type StepRun,
  type Violation,
} from './invariant-ledger.ts'
import { isServing } from './load-balancers.ts'
import { isActiveMember, type SimRegion } from './state.ts'
import { pairAllowanceMs } from './swap-allowance.ts'

interface ServedMemory {
  /** Instances seen serving in their group after some step. */
  readonly served: Set<string>
  /** Instances already reported (once each). */
  readonly reported: Set<string>
}

const memories = new WeakMap<InvariantLedger, ServedMemory>()

const memoryOf = (ledger: InvariantLedger): ServedMemory => {
  let memory = memories.get(ledger)
  if (memory === undefined) {
    memory = { served: new Set(), reported: new Set() }
    memories.set(ledger, memory)
  }
  return memory
}

/** Remembers every member serving now (any origin: cheap, and the check reads only spotswap's). */
export const rememberServing = (region: SimRegion, ledger: InvariantLedger, nowMs: number): void => {
  const { served } = memoryOf(ledger)
  for (const group of region.groups.values())
    for (const id of group.members.keys()) if (!served.has(id) && isServing(group, id, nowMs)) served.add(id)
}

const clean = (session: Session): boolean => !session.crashed && session.failedCalls === 0

/** The `never-served` violations after one step, judged at `nowMs` (the step's end). */
export const checkNeverServed = (
  ctx: StepContext,
  runs: readonly StepRun[],
  nowMs: number,
  at: string,
): Violation[] => {
  rememberServing(ctx.region, ctx.ledger, nowMs)
  const { served, reported } = memoryOf(ctx.ledger)
  const violations: Violation[] = []
  const allowanceMs =
    pairAllowanceMs(ctx.config) +
    ((ORPHAN_SCHEDULE_PERIODS - 1) * ctx.config.scheduleMinutes * 60 + GRACE_SLACK_SECONDS) * 1000
  for (const group of ctx.region.groups.values()) {
    const judged = runs.some(
      (r) => r.session.actor === 'replacer' && runCovers(r, group.name) && clean(r.session),
    )
    if (!judged || !isManaged(group.tags, ctx.config)) continue
    for (const [id, member] of group.members) {
      const instance = ctx.region.instances.get(id)
      if (instance?.origin !== 'spotswap' || !isActiveMember(member)) continue
      if (served.has(id) || reported.has(id) || member.attachedMs === undefined) continue
      if (member.protectedFromScaleIn || instance.terminationProtected || instance.ownerKeeps === true)
        continue
      if (nowMs <= member.attachedMs + allowanceMs) continue
      reported.add(id)
      violations.push({
        at,
        group: group.name,
        invariant: 'never-served',
        detail: `${id}, attached by spotswap at ${new Date(member.attachedMs).toISOString()}, never served and is still ${member.lifecycleState} in the group`,
      })
    }
  }
  return violations
}
