/**
 * The parts of a chaos case beyond the scenario format: faults (random and scripted crashes at every step
 * of a swap, launch and interruption handling; error storms), replacer runs queued behind one in flight, and the owner's
 * changes to protections and opt-in. Drawn as fractions and indexes; generate.ts turns them into times
 * and names once the account is known, so shrinking one part never invalidates another.
 */
import fc from 'fast-check'
import type { CrashPoint, ErrorStorm, OwnerActionKind } from './case.ts'

/** Every write of a swap, a launch and the interruption handler, and the reads every run starts with. */
export const CRASH_OPERATIONS = [
  'autoscaling:CreateOrUpdateTags',
  'autoscaling:UpdateAutoScalingGroup',
  'autoscaling:AttachInstances',
  'autoscaling:TerminateInstanceInAutoScalingGroup',
  'autoscaling:DeleteTags',
  'autoscaling:DetachInstances',
  'ec2:CreateFleet',
  'ec2:CreateLaunchTemplate',
  'ec2:CreateTags',
  'ec2:DeleteTags',
  'ec2:TerminateInstances',
  'ec2:DescribeInstances',
  'autoscaling:DescribeAutoScalingGroups',
] as const

const crashPoint: fc.Arbitrary<CrashPoint> = fc.record({
  operation: fc.constantFrom(...CRASH_OPERATIONS),
  occurrence: fc.integer({ min: 1, max: 4 }),
  when: fc.constantFrom('before', 'after'),
})

/** Storms as fractions (‰) of the run; generate.ts scales them to minutes. */
const stormDraw = fc.record({
  from: fc.nat(999),
  length: fc.integer({ min: 1, max: 300 }),
  service: fc.constantFrom('ec2', 'autoscaling'),
  rate: fc.constantFrom(0.3, 0.7, 1),
})

export type StormDraw = typeof stormDraw extends fc.Arbitrary<infer T> ? T : never

export const faultsArbitrary = fc.record({
  errorRate: fc.constantFrom(0, 0, 0, 0.01, 0.03, 0.1),
  crashRate: fc.constantFrom(0, 0, 0, 0.003, 0.01),
  crashes: fc.array(crashPoint, { maxLength: 3 }),
  storms: fc.array(stormDraw, { maxLength: 2 }),
})

export const queuedRunsArbitrary = fc.record({
  at: fc.nat(999),
  /**
   * The first run starts `leadMs` before a schedule boundary and the second is sent on it: the second
   * runs in a later period than the first, right after it, and finds what the first left half-way
   * (launches not yet running, a swap waiting for its replacements to serve).
   */
  nearBoundary: fc.boolean(),
  leadMs: fc.constantFrom(25, 100, 250, 1000, 2000),
  delayMs: fc.constantFrom(0, 0, 25, 100, 1000, 3000),
  region: fc.nat(1),
  /** A group index for a launch-event run, or null for a second whole-region run. */
  secondGroup: fc.option(fc.nat(9), { nil: null }),
})

export const ownerArbitrary = fc.record({
  at: fc.nat(999),
  group: fc.nat(9),
  kind: fc.constantFrom<OwnerActionKind>(
    'protect-from-scale-in',
    'protect-from-termination',
    'opt-out',
    'opt-in',
    'forge-launch',
    'detach-member',
    'forge-warned-old',
    'forge-warned-fresh',
    'untagged-launches',
    'forge-swap-unsigned',
    'forge-swap-copied',
    'forge-swap-foreign-key',
    'replant-expired-swap',
  ),
  member: fc.nat(9),
})

export const stormOf = (draw: StormDraw, durationMinutes: number): ErrorStorm => {
  const fromMinute = Math.floor((draw.from / 1000) * durationMinutes)
  return {
    fromMinute,
    toMinute: fromMinute + Math.ceil((draw.length / 1000) * durationMinutes),
    service: draw.service,
    rate: draw.rate,
  }
}
