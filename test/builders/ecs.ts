/** ECS capacity providers for tests: `cp-web` protecting group `web`, varied by overrides. */
import type { EcsCapacityProvider } from '../../lambdas/core/ecs/capacity-provider.ts'

export const webProvider = (overrides: Partial<EcsCapacityProvider> = {}): EcsCapacityProvider => ({
  name: 'cp-web',
  status: 'ACTIVE',
  groupArnOrName: 'web',
  managedTerminationProtection: true,
  managedDraining: false,
  managedScaling: true,
  ...overrides,
})
