/**
 * Commitments for some chaos cases: Reserved Instances and Capacity Reservations on the types the
 * region's groups run, starting or expiring mid-run, and unmanaged usage that competes for them. Drawn
 * from their own stream of the seed, not fast-check's, so the cases without them stay as they were.
 */
import { createRng, type Rng } from '../sim/rng.ts'

/** The share of cases that hold commitments. */
const COMMITTED_SHARE = 0.3

interface GroupSpec {
  readonly instanceType: string
}

const when = (rng: Rng, startMs: number, durationMs: number): string =>
  new Date(startMs + Math.floor(rng.next() * durationMs)).toISOString()

/** Start or end mid-run, or neither (in effect throughout). */
const window = (rng: Rng, startMs: number, durationMs: number): Record<string, string> => {
  const choice = rng.int(3)
  if (choice === 0) return { start: when(rng, startMs, durationMs) }
  if (choice === 1) return { end: when(rng, startMs, durationMs) }
  return {}
}

/** The region's `commitments` field, or nothing for most cases. */
export const chaosCommitments = (
  seed: number,
  region: string,
  zones: readonly string[],
  groups: readonly GroupSpec[],
  startMs: number,
  durationMs: number,
): { commitments?: Record<string, unknown> } => {
  const rng = createRng(seed).fork(`commitments:${region}`)
  const first = rng.pick(groups)
  const zone = rng.pick(zones)
  if (!rng.chance(COMMITTED_SHARE) || first === undefined || zone === undefined) return {}
  const second = rng.pick(groups) ?? first
  return {
    commitments: {
      reservedInstances: [
        {
          type: first.instanceType,
          count: 1 + rng.int(3),
          ...(rng.chance(0.5) ? { zone } : {}),
          ...window(rng, startMs, durationMs),
        },
      ],
      capacityReservations: rng.chance(0.5)
        ? [{ type: second.instanceType, zone, count: 1 + rng.int(2), ...window(rng, startMs, durationMs) }]
        : [],
      unmanagedUsage: rng.chance(0.5) ? [{ type: first.instanceType, zone, count: 1 + rng.int(2) }] : [],
    },
  }
}
