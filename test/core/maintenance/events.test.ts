import { describe, expect, it } from 'vitest'
import { eventsByInstance, scheduledEvent } from '../../../lambdas/core/maintenance/events.ts'
import { formatMaintenanceMarker, parseMaintenanceMarker } from '../../../lambdas/core/maintenance/marker.ts'

const AT = new Date('2026-01-10T00:00:00Z')
const described = (overrides = {}) => ({
  instanceId: 'i-0123456789abcdef0',
  code: 'instance-retirement',
  description: 'The instance is running on degraded hardware',
  notBefore: AT,
  ...overrides,
})

describe('scheduledEvent', () => {
  it('believes a pending event of a known code with a NotBefore', () => {
    expect(scheduledEvent(described())).toEqual({
      instanceId: 'i-0123456789abcdef0',
      code: 'instance-retirement',
      notBefore: AT,
    })
  })

  it.each([
    ['a completed event', { description: '[Completed] The instance is running on degraded hardware' }],
    ['a canceled event', { description: '[Canceled] System reboot' }],
    ['an unknown code', { code: 'instance-dance' }],
    ['no NotBefore', { notBefore: undefined }],
    ['no instance', { instanceId: undefined }],
  ])('ignores %s', (_, overrides) => {
    expect(scheduledEvent(described(overrides))).toBeUndefined()
  })
})

describe('eventsByInstance', () => {
  it('keeps the earliest event of each instance', () => {
    const later = { instanceId: 'i-1', code: 'system-reboot' as const, notBefore: new Date(AT.getTime() + 1) }
    const earlier = { instanceId: 'i-1', code: 'instance-stop' as const, notBefore: AT }
    expect(eventsByInstance([later, earlier]).get('i-1')).toBe(earlier)
  })
})

describe('the maintenance marker', () => {
  const marker = {
    member: 'i-0123456789abcdef0',
    ownerDesired: 4,
    phase: 'raising' as const,
    startedAt: AT,
  }

  it('reads back what it writes', () => {
    expect(parseMaintenanceMarker(formatMaintenanceMarker(marker))).toEqual(marker)
  })

  it.each([
    'v2 member=i-0123456789abcdef0 owner=4 phase=raising started=2026-01-10T00:00:00.000Z',
    'v1 member=i-0123456789abcdef0 owner=4 phase=dancing started=2026-01-10T00:00:00.000Z',
    'v1 member=me owner=4 phase=raising started=2026-01-10T00:00:00.000Z',
    'v1 member=i-0123456789abcdef0 owner=-4 phase=raising started=2026-01-10T00:00:00.000Z',
    'v1 member=i-0123456789abcdef0 owner=4 phase=raising started=never',
    'v1 member=i-0123456789abcdef0 owner=4 owner=5 phase=raising started=2026-01-10T00:00:00.000Z',
    'v1 member=i-0123456789abcdef0 owner=4 phase=raising started=2026-01-10T00:00:00.000Z extra=1',
  ])('refuses %s', (raw) => {
    expect(parseMaintenanceMarker(raw)).toBeUndefined()
  })
})
