import { describe, expect, it } from 'vitest'
import { ECS_DRAIN_DEADLINE_SECONDS } from '../../../lambdas/core/constants.ts'
import type { EcsManagement } from '../../../lambdas/core/ecs/capacity-provider.ts'
import { drainAllowanceSeconds } from '../../../lambdas/core/ecs/deadline.ts'
import { webProvider } from '../../builders/ecs.ts'

describe('drainAllowanceSeconds', () => {
  it.each<[string, EcsManagement | undefined, number]>([
    ['a group ECS does not manage', undefined, 0],
    ['a tagged group no provider protects', { kind: 'not-managed', detail: 'none' }, 0],
    [
      'a managed group',
      { kind: 'managed', provider: webProvider({}), cluster: { kind: 'no-cluster' } },
      ECS_DRAIN_DEADLINE_SECONDS,
    ],
    [
      'a tagged group whose providers were not read',
      { kind: 'unreadable', error: 'denied' },
      ECS_DRAIN_DEADLINE_SECONDS,
    ],
  ])('gives %s its drain time', (_, ecs, seconds) => {
    expect(drainAllowanceSeconds(ecs)).toBe(seconds)
  })
})
