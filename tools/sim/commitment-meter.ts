/**
 * When each on-demand instance ran, as intervals, so commitment-bill.ts can bill every clock hour with
 * the commitments in effect. EC2 bills an instance from running to shutting-down (costs.ts), and a stopped
 * one not at all.
 */
import type { InstanceState } from '../../lambdas/core/types.ts'
import type { SimInstance } from './state.ts'
import type { SimObserver, World } from './world.ts'

export interface OnDemandInterval {
  readonly instance: SimInstance
  readonly fromMs: number
  readonly toMs: number
}

export class OnDemandMeter implements SimObserver {
  private readonly open = new Map<string, { readonly instance: SimInstance; readonly fromMs: number }>()
  readonly intervals: OnDemandInterval[] = []

  constructor(private readonly world: World) {
    // The scenario's initial fleet runs from its launch.
    for (const region of world.regions.values())
      for (const instance of region.instances.values())
        if (instance.state === 'running') this.start(instance, instance.launchMs)
  }

  instanceLaunched(instance: SimInstance): void {
    if (instance.state === 'running') this.start(instance, instance.launchMs)
  }

  instanceStateChanged(instance: SimInstance, _from: InstanceState): void {
    if (instance.state === 'running') this.start(instance, this.world.clock.now)
    else if (instance.state === 'stopped' || instance.state === 'shutting-down')
      this.stop(instance, Math.min(this.world.clock.now, instance.billedUntilMs ?? this.world.clock.now))
  }

  /** Closes what still runs at `endMs`. */
  finish(endMs: number): void {
    for (const { instance } of [...this.open.values()]) this.stop(instance, instance.billedUntilMs ?? endMs)
  }

  private start(instance: SimInstance, atMs: number): void {
    if (instance.lifecycle !== 'on-demand' || this.open.has(instance.id)) return
    this.open.set(instance.id, { instance, fromMs: atMs })
  }

  private stop(instance: SimInstance, atMs: number): void {
    const running = this.open.get(instance.id)
    if (running === undefined) return
    this.open.delete(instance.id)
    if (atMs > running.fromMs) this.intervals.push({ instance, fromMs: running.fromMs, toMs: atMs })
  }
}
