/**
 * Which chaos groups stand behind an ECS capacity provider: read off values the case already drew (a
 * protected group's minimum and grace period), so adding ECS groups draws nothing new and every other
 * seed's case stays as it was. Among the groups with protected members, about half are ECS's, and some of
 * those have managed termination protection off: the tag with the owner's own protection. Their protected
 * members run a standalone task each (a drain that stalls, sim/ecs-cluster.ts); about half of them also
 * run a service, replacements first or stop first (tools/sim/ecs-scheduler.ts), spread or binpacked; and
 * about half have ECS managed scaling move their desired capacity (tools/sim/ecs-managed-scaling.ts),
 * some with spare instances (targetCapacity below 100).
 */
import type { Draw } from './draw.ts'

type DrawnGroup = Draw['groups'][number]

const servicesOf = (g: DrawnGroup): Record<string, unknown> =>
  g.extraMax % 2 === 0
    ? {}
    : {
        slotsPerInstance: 2 + (g.extraDesired % 3),
        services: [
          {
            name: 'api',
            desiredCount: g.min + g.extraDesired,
            minimumHealthyPercent: g.terminationHook ? 100 : 50,
            maximumPercent: g.terminationHook ? 200 : 100,
            deregistrationDelaySeconds: g.launch === 'template' ? 30 : 300,
            placementStrategy: g.extraDesired % 2 === 0 ? 'binpack' : 'spread',
          },
        ],
      }

export const ecsFieldOf = (g: DrawnGroup): Record<string, unknown> =>
  g.protectedFromScaleIn === 0 || g.min % 2 === 0
    ? {}
    : {
        ecs: {
          managedTerminationProtection: g.grace !== 0,
          managedDraining: g.grace !== 30,
          ...servicesOf(g),
          ...(g.schedule.length % 2 === 1
            ? {
                managedScaling: { targetCapacity: g.extraDesired >= 4 ? 75 : 100, instanceWarmupPeriod: 300 },
              }
            : {}),
        },
      }
