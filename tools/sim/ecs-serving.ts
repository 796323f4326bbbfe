/**
 * Serving for a group whose cluster runs services (ecs-cluster.ts): the tasks RUNNING against what the
 * services want, not the members in service. The meter's figure stays in instances (the owner's desired
 * capacity times the share of tasks placed), so unserved instance-hours and fair savings keep their unit.
 * Beside it, per service, how long it ran fewer healthy tasks than its minimumHealthyPercent allows
 * (of its desired count; of the previous one while an owner's raise is being placed)
 * (https://docs.aws.amazon.com/AmazonECS/latest/APIReference/API_DeploymentConfiguration.html): the
 * floor ECS keeps while it moves tasks off a DRAINING container instance, which a drain swap must keep.
 */
import { clusterOf } from './ecs-cluster.ts'
import type { SimService } from './ecs-cluster-state.ts'
import type { SimGroup, SimRegion } from './state.ts'

const running = (region: SimRegion, group: SimGroup, service: string): number => {
  const cluster = clusterOf(region, group.name)
  let count = 0
  for (const task of cluster?.tasks.values() ?? [])
    if (task.service === service && task.status === 'RUNNING') count++
  return count
}

/** The group's serving capacity in instances when its cluster runs services; undefined otherwise. */
export const ecsServing = (
  region: SimRegion,
  group: SimGroup,
): { readonly inService: number; readonly desired: number } | undefined => {
  const services = clusterOf(region, group.name)?.services ?? []
  if (services.length === 0) return undefined
  let wanted = 0
  let placed = 0
  for (const service of services) {
    wanted += service.desiredCount
    placed += Math.min(running(region, group, service.name), service.desiredCount)
  }
  const desired = group.owner.desiredCapacity
  return { inService: wanted === 0 ? desired : (desired * placed) / wanted, desired }
}

/** One service's figures over the run. */
export interface EcsServiceFigures {
  readonly desiredCount: number
  /** Minutes it ran fewer healthy tasks than its minimumHealthyPercent of its desired count. */
  readonly belowMinimumHealthyMinutes: number
  /**
   * Its fewest healthy tasks, in percent of its desired count at that moment (of the previous one while
   * the owner's raise is still being placed).
   */
  readonly lowestHealthyPct: number
}

const minimumHealthy = (service: SimService, desiredCount: number): number =>
  Math.ceil((desiredCount * service.minimumHealthyPercent) / 100)

interface Open {
  readonly sinceMs: number
  readonly below: boolean
}

/** Watches every service of every cluster after each step. */
export class EcsServiceMeter {
  private readonly open = new Map<string, Open>()
  private readonly belowMs = new Map<string, number>()
  private readonly lowestPct = new Map<string, number>()
  /** The desired count the floor is taken from: a raised one only once the service first reached it. */
  private readonly floorOf = new Map<string, number>()

  observe(region: SimRegion, group: SimGroup, nowMs: number): void {
    for (const service of clusterOf(region, group.name)?.services ?? []) {
      const key = `${group.name}\n${service.name}`
      this.close(key, nowMs)
      const healthy = running(region, group, service.name)
      // A service the owner grows is not below its floor while its new tasks start.
      const previous = this.floorOf.get(key) ?? service.desiredCount
      const floorCount =
        service.desiredCount <= previous || healthy >= service.desiredCount ? service.desiredCount : previous
      this.floorOf.set(key, floorCount)
      const pct = floorCount === 0 ? 100 : (100 * Math.min(healthy, floorCount)) / floorCount
      this.lowestPct.set(key, Math.min(this.lowestPct.get(key) ?? 100, pct))
      this.open.set(key, { sinceMs: nowMs, below: healthy < minimumHealthy(service, floorCount) })
    }
  }

  private close(key: string, nowMs: number): void {
    const open = this.open.get(key)
    if (open?.below) this.belowMs.set(key, (this.belowMs.get(key) ?? 0) + nowMs - open.sinceMs)
    this.open.delete(key)
  }

  /** The group's services' figures, once the run is over; undefined for a group without services. */
  figures(region: SimRegion, group: SimGroup, endMs: number): Record<string, EcsServiceFigures> | undefined {
    const services = clusterOf(region, group.name)?.services ?? []
    if (services.length === 0) return undefined
    const byName: Record<string, EcsServiceFigures> = {}
    for (const service of services) {
      const key = `${group.name}\n${service.name}`
      this.close(key, endMs)
      byName[service.name] = {
        desiredCount: service.desiredCount,
        belowMinimumHealthyMinutes: Math.round(((this.belowMs.get(key) ?? 0) / 60_000) * 100) / 100,
        lowestHealthyPct: Math.round((this.lowestPct.get(key) ?? 100) * 100) / 100,
      }
    }
    return byName
  }
}
