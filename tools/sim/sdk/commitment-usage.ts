/**
 * The scenario's unmanaged on-demand usage as EC2 shows it: standalone running instances (no group, no
 * tag) in region-wide DescribeInstances listings while the usage is in effect, so the engine's read of the
 * region's on-demand instances sees what the bill counts (commitment-bill.ts bills the same usage).
 */
import { type SimInstance, subnetOf } from '../state.ts'
import type { SimApiContext } from './request.ts'

/** When usage in effect before the run was launched: before any simulated run starts. */
const BEFORE_THE_RUN_MS = Date.parse('2020-01-01T00:00:00Z')

/** Its ids: the bill's line ids (`unmanaged-<usage>-<n>`) behind EC2's `i-`. */
export const standaloneInstances = (ctx: SimApiContext): SimInstance[] => {
  const now = ctx.world.clock.now
  return (ctx.region.commitments?.unmanagedUsage ?? []).flatMap((usage, u): SimInstance[] => {
    if (now < usage.startMs || now >= usage.endMs) return []
    return Array.from({ length: usage.count }, (_, i) => ({
      id: `i-unmanaged-${u}-${i}`,
      region: ctx.region.name,
      type: usage.type,
      zone: usage.zone,
      subnetId: subnetOf(usage.zone),
      lifecycle: 'on-demand',
      state: 'running',
      launchMs: Number.isFinite(usage.startMs) ? usage.startMs : BEFORE_THE_RUN_MS,
      tags: {},
      platform: usage.platform,
      terminationProtected: false,
      costGroup: undefined,
      origin: 'owner',
      billedUntilMs: undefined,
      interruptAtMs: undefined,
      neverHealthy: false,
      ownerKeeps: true,
    }))
  })
}
