/**
 * Which chaos groups stand behind an ECS capacity provider: read off values the case already drew (a
 * protected group's minimum and grace period), so adding ECS groups draws nothing new and every other
 * seed's case stays as it was. Among the groups with protected members, about half are ECS's (their
 * protection is ECS's), and some of those have managed termination protection off: the tag with the
 * owner's own protection.
 */
import type { Draw } from './draw.ts'

type DrawnGroup = Draw['groups'][number]

export const ecsFieldOf = (g: DrawnGroup): Record<string, unknown> =>
  g.protectedFromScaleIn === 0 || g.min % 2 === 0
    ? {}
    : { ecs: { managedTerminationProtection: g.grace !== 0, managedDraining: g.grace !== 30 } }
