/**
 * The figures of the report, kept as the simulation runs: what each group's instances cost, how many
 * interruptions, replacements and failed launches it saw, how long it spent below its on-demand minimum,
 * when it first converged, and how long spot instances launched for it stayed orphaned.
 */
import { Priority } from './clock.ts'
import { instanceCost } from './costs.ts'
import type { GroupState } from './group-state.ts'
import type { SimGroup, SimInstance } from './state.ts'
import type { SimObserver, World } from './world.ts'

export interface GroupTally {
  actualCostUsd: number
  interruptions: number
  replacements: number
  failedLaunches: number
  orphanMs: number
  minOnDemandViolationMs: number
  /** On-demand instances the group itself launched during the run (scale-outs, replacements of lost members). */
  groupOnDemandLaunches: number
  /** How long those ran, billed, within the simulated period: until replaced, scaled in or the end. */
  groupOnDemandMs: number
  /**
   * When the group first had no more on-demand instances than its minimum, protected ones counting toward
   * it (managed groups only).
   */
  convergedAtMs: number | undefined
}

export interface OrphanWatch {
  /** When the instance must be attached or terminated by; undefined when it is not an engine launch. */
  readonly deadlineOf: (instance: SimInstance) => number | undefined
  /** Called once per instance still unattached and alive at its deadline. */
  readonly onOrphan: (instance: SimInstance, deadline: number) => void
}

const emptyTally = (): GroupTally => ({
  actualCostUsd: 0,
  interruptions: 0,
  replacements: 0,
  failedLaunches: 0,
  orphanMs: 0,
  minOnDemandViolationMs: 0,
  groupOnDemandLaunches: 0,
  groupOnDemandMs: 0,
  convergedAtMs: undefined,
})

/** An on-demand instance Auto Scaling launched for its group: what a scale-out costs until replaced. */
const isGroupOnDemand = (instance: SimInstance): boolean =>
  instance.origin === 'asg' && instance.lifecycle === 'on-demand' && instance.costGroup !== undefined

export class Accounting implements SimObserver {
  private readonly tallies = new Map<string, GroupTally>()
  private readonly runningSince = new Map<string, number>()
  private readonly deadlines = new Map<string, number>()
  private readonly lastSeen = new Map<string, { atMs: number; state: GroupState }>()

  constructor(
    private readonly world: World,
    private readonly window: { readonly start: number; readonly end: number },
    private readonly orphans: OrphanWatch,
  ) {
    // Instances present before accounting began (the scenario's initial fleet) are billed from the start.
    for (const region of world.regions.values())
      for (const instance of region.instances.values())
        if (instance.state === 'running') this.runningSince.set(instance.id, instance.launchMs)
  }

  tally(group: string): GroupTally {
    let tally = this.tallies.get(group)
    if (tally === undefined) {
      tally = emptyTally()
      this.tallies.set(group, tally)
    }
    return tally
  }

  instanceLaunched(instance: SimInstance): void {
    if (instance.state === 'running') this.runningSince.set(instance.id, instance.launchMs)
    if (isGroupOnDemand(instance)) this.tally(instance.costGroup as string).groupOnDemandLaunches++
    const deadline = this.orphans.deadlineOf(instance)
    if (deadline === undefined) return
    this.deadlines.set(instance.id, deadline)
    this.world.clock.schedule(deadline, Priority.audit, 'orphan deadline', () => {
      if (this.deadlines.has(instance.id)) this.orphans.onOrphan(instance, deadline)
    })
  }

  instanceStateChanged(instance: SimInstance): void {
    if (instance.state === 'running') this.runningSince.set(instance.id, this.world.clock.now)
    // A stopped instance (a warm pool's) is not billed until it runs again.
    if (instance.state === 'stopped') this.charge(instance, Math.min(this.world.clock.now, this.window.end))
    if (instance.state !== 'shutting-down') return
    this.charge(instance)
    this.resolveOrphan(instance)
  }

  attached(group: SimGroup, instance: SimInstance): void {
    if (instance.origin === 'spotswap') this.tally(group.name).replacements++
    this.resolveOrphan(instance)
  }

  interruptionWarned(instance: SimInstance): void {
    if (instance.costGroup !== undefined) this.tally(instance.costGroup).interruptions++
  }

  launchFailed(_region: string, group: string): void {
    this.tally(group).failedLaunches++
  }

  /**
   * A group's state from now on; time spent in the previous state is added up. `held`: how many of its
   * on-demand members it keeps for good (commitment-floor.ts), asked only while it has not converged.
   */
  observe(group: string, state: GroupState, held?: () => number): void {
    const now = this.world.clock.now
    const last = this.lastSeen.get(group)
    const tally = this.tally(group)
    if (last?.state.managed && last.state.onDemand < last.state.requiredOnDemand)
      tally.minOnDemandViolationMs += now - last.atMs
    // Protected instances must stay on-demand, so they count toward the minimum a group converges to.
    const floor = Math.max(state.requiredOnDemand, state.protectedOnDemand)
    if (state.managed && tally.convergedAtMs === undefined && state.onDemand <= floor)
      tally.convergedAtMs = now
    // Members a commitment pays for are kept like protected ones: they count toward the floor too.
    else if (state.managed && tally.convergedAtMs === undefined && held !== undefined)
      if (state.onDemand <= Math.max(state.requiredOnDemand, held())) tally.convergedAtMs = now
    this.lastSeen.set(group, { atMs: now, state })
  }

  /** Charges what is still running and closes open orphan intervals at the end of the simulated period. */
  finish(): void {
    for (const region of this.world.regions.values())
      for (const instance of region.instances.values()) {
        if (instance.billedUntilMs === undefined) this.charge(instance)
        this.resolveOrphan(instance)
      }
    for (const [group, { state }] of this.lastSeen) this.observe(group, state)
  }

  private charge(instance: SimInstance, until = this.window.end): void {
    const since = this.runningSince.get(instance.id)
    if (since === undefined || instance.costGroup === undefined) return
    const market = this.world.region(instance.region).market
    this.tally(instance.costGroup).actualCostUsd += instanceCost(
      market,
      instance,
      since,
      this.window.start,
      until,
    )
    if (isGroupOnDemand(instance))
      this.tally(instance.costGroup).groupOnDemandMs += Math.max(
        0,
        Math.min(until, instance.billedUntilMs ?? until) - Math.max(since, this.window.start),
      )
    this.runningSince.delete(instance.id)
  }

  private resolveOrphan(instance: SimInstance): void {
    const deadline = this.deadlines.get(instance.id)
    if (deadline === undefined || instance.costGroup === undefined) return
    this.deadlines.delete(instance.id)
    const resolvedAt = Math.min(this.world.clock.now, this.window.end)
    if (resolvedAt > deadline) this.tally(instance.costGroup).orphanMs += resolvedAt - deadline
  }
}
