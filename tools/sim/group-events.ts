/**
 * When things happened to each group, for `simulate`'s page and table: the minutes (from the start) of
 * its interruptions, failed launches and swaps (counted as accounting.ts counts them), and the replacer
 * runs that planned it or skipped it, by the engine's skip code.
 */
import type { GroupPlan } from '../../lambdas/core/plan/actions.ts'
import type { GroupEvents, GroupRuns } from './report.ts'
import type { SimGroup, SimInstance } from './state.ts'
import type { SimObserver, World } from './world.ts'

interface Log {
  readonly interruptions: number[]
  readonly failedLaunches: number[]
  readonly swaps: number[]
  planned: number
  readonly skipped: Map<string, number>
  lastSkip: string | undefined
}

const emptyLog = (): Log => ({
  interruptions: [],
  failedLaunches: [],
  swaps: [],
  planned: 0,
  skipped: new Map(),
  lastSkip: undefined,
})

export class GroupEventLog implements SimObserver {
  private readonly logs = new Map<string, Log>()

  constructor(
    private readonly world: World,
    private readonly start: number,
  ) {}

  attached(group: SimGroup, instance: SimInstance): void {
    if (instance.origin === 'spotswap') this.log(group.name).swaps.push(this.minutes())
  }

  interruptionWarned(instance: SimInstance): void {
    if (instance.costGroup !== undefined) this.log(instance.costGroup).interruptions.push(this.minutes())
  }

  launchFailed(_region: string, group: string): void {
    this.log(group).failedLaunches.push(this.minutes())
  }

  /** A replacer run's plan for a group: counted, and its skip (if any) by code. */
  planned(plan: GroupPlan): void {
    const log = this.log(plan.group)
    log.planned++
    if (plan.skipped === undefined) return
    const code = plan.skip?.code ?? plan.skipped.split(' ')[0] ?? plan.skipped
    log.skipped.set(code, (log.skipped.get(code) ?? 0) + 1)
    log.lastSkip = plan.skipped
  }

  events(group: string): GroupEvents {
    const { interruptions, failedLaunches, swaps } = this.log(group)
    return { interruptions, failedLaunches, swaps }
  }

  runs(group: string): GroupRuns {
    const log = this.log(group)
    const skipped = Object.fromEntries([...log.skipped].sort(([a], [b]) => (a < b ? -1 : 1)))
    return {
      planned: log.planned,
      skipped,
      ...(log.lastSkip === undefined ? {} : { lastSkip: log.lastSkip }),
    }
  }

  private minutes(): number {
    return Math.round((this.world.clock.now - this.start) / 6_000) / 10
  }

  private log(group: string): Log {
    let log = this.logs.get(group)
    if (log === undefined) {
      log = emptyLog()
      this.logs.set(group, log)
    }
    return log
  }
}
