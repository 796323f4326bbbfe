/**
 * EC2 instance lifecycles: launched pending, running after a boot, shutting-down (billing stops) and
 * terminated a little later. Group membership is Auto Scaling's business (asg.ts).
 */
import type { InstanceState, Lifecycle } from '../../lambdas/core/types.ts'
import { Priority } from './clock.ts'
import { BOOT_SECONDS, SHUTDOWN_SECONDS } from './constants.ts'
import { type InstanceOrigin, type SimInstance, type SimRegion, subnetOf } from './state.ts'
import type { World } from './world.ts'

export interface LaunchSpec {
  readonly type: string
  readonly zone: string
  readonly lifecycle: Lifecycle
  readonly tags: Readonly<Record<string, string>>
  readonly costGroup: string | undefined
  readonly origin: InstanceOrigin
  readonly platform?: string
  readonly terminationProtected?: boolean
  /** For instances present at the start: already running since this time. */
  readonly runningSinceMs?: number
  /** Its image is broken: it never passes a load balancer health check. */
  readonly neverHealthy?: boolean
}

export const setState = (world: World, instance: SimInstance, to: InstanceState): void => {
  const from = instance.state
  if (from === to) return
  instance.state = to
  world.notify((o) => o.instanceStateChanged?.(instance, from))
}

/** Starts an instance; `onRunning` is called when it has booted (if it is still pending then). */
export const launchInstance = (
  world: World,
  region: SimRegion,
  spec: LaunchSpec,
  onRunning?: (instance: SimInstance) => void,
): SimInstance => {
  const instance: SimInstance = {
    id: world.newInstanceId(),
    region: region.name,
    type: spec.type,
    zone: spec.zone,
    subnetId: subnetOf(spec.zone),
    lifecycle: spec.lifecycle,
    state: spec.runningSinceMs === undefined ? 'pending' : 'running',
    launchMs: spec.runningSinceMs ?? world.clock.now,
    tags: { ...spec.tags },
    platform: spec.platform ?? 'Linux/UNIX',
    terminationProtected: spec.terminationProtected ?? false,
    costGroup: spec.costGroup,
    origin: spec.origin,
    billedUntilMs: undefined,
    interruptAtMs: undefined,
    neverHealthy: spec.neverHealthy ?? false,
  }
  region.instances.set(instance.id, instance)
  world.notify((o) => o.instanceLaunched?.(instance))
  if (instance.state === 'pending') {
    world.clock.schedule(world.clock.now + BOOT_SECONDS * 1000, Priority.transition, 'boot', () => {
      if (instance.state !== 'pending') return
      setState(world, instance, 'running')
      onRunning?.(instance)
    })
  }
  return instance
}

/** Stops billing at once and terminates a little later; `onTerminated` runs at the end. Idempotent. */
export const shutDown = (
  world: World,
  instance: SimInstance,
  onTerminated?: (instance: SimInstance) => void,
): void => {
  if (instance.state === 'shutting-down' || instance.state === 'terminated') return
  instance.billedUntilMs = world.clock.now
  setState(world, instance, 'shutting-down')
  world.clock.schedule(world.clock.now + SHUTDOWN_SECONDS * 1000, Priority.transition, 'terminated', () => {
    setState(world, instance, 'terminated')
    onTerminated?.(instance)
  })
}

/** Starts a stopped instance (a warm pool's): pending, then running after a boot. */
export const startStopped = (
  world: World,
  instance: SimInstance,
  onRunning: (instance: SimInstance) => void,
): void => {
  if (instance.state !== 'stopped') return
  setState(world, instance, 'pending')
  world.clock.schedule(world.clock.now + BOOT_SECONDS * 1000, Priority.transition, 'boot', () => {
    if (instance.state !== 'pending') return
    setState(world, instance, 'running')
    onRunning(instance)
  })
}
