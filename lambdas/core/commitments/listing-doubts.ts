/**
 * Where the region's cached listing of running instances (up to COMMITMENTS_CACHE_TTL_MS old) and this
 * run's fresh group listing disagree, so that one read of those instances by id settles them:
 * - a listed on-demand instance carrying a managed group's `aws:autoscaling:groupName` that is no member
 *   of it now: terminated since the listing, or detached and still running, which keeps using the
 *   commitments it matches ("after you detach an instance, it continues running and incurring charges",
 *   https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-detach-attach-instances.html);
 * - an in-service member of another lane's group the listing does not hold at all (spot or on-demand):
 *   launched since, possibly on demand, and then the newest usage of the region.
 * Until read, the first is counted neither way and the second not at all (region-usage.ts).
 */

import { productDescriptionOf } from '../platform.ts'
import type { Instance } from '../types.ts'
import type { RegionUsageInput } from './region-usage.ts'
import type { RunningOnDemand } from './types.ts'

/** EC2's tag naming the group that launched or attached an instance. */
const GROUP_NAME_TAG = 'aws:autoscaling:groupName'

/** Built by loops: a region's 100,000 members, without an array per group and one of them all first. */
const memberIdsOf = (groups: readonly { readonly members: readonly { readonly instanceId: string }[] }[]) => {
  const ids = new Set<string>()
  for (const group of groups) for (const member of group.members) ids.add(member.instanceId)
  return ids
}

/** The instances to read by id this run; none when the listing and the groups agree. */
export const listingDoubts = (
  input: RegionUsageInput,
  listed: readonly RunningOnDemand[],
  runningIds: readonly string[] | undefined,
): string[] => {
  const known = input.regionGroups ?? input.groups.map((g) => g.group)
  const names = new Set(known.map((g) => g.name))
  const members = memberIdsOf(known)
  const left = listed
    .filter((i) => i.readNow !== true && i.group !== undefined && names.has(i.group) && !members.has(i.id))
    .map((i) => i.id)
  if (input.regionGroups === undefined || runningIds === undefined) return left
  const seen = new Set(runningIds)
  const own = memberIdsOf(input.groups.map((g) => g.group))
  for (const group of input.regionGroups)
    for (const m of group.members)
      if (m.lifecycleState === 'InService' && !own.has(m.instanceId) && !seen.has(m.instanceId))
        left.push(m.instanceId)
  return left
}

/** An instance read by id this run, as the listing would show it: undefined unless it runs on demand. */
export const runningOnDemandOf = (instance: Instance): RunningOnDemand | undefined =>
  instance.state !== 'running' || instance.lifecycle !== 'on-demand'
    ? undefined
    : {
        id: instance.id,
        type: instance.type,
        zone: instance.zone,
        platform: productDescriptionOf(instance.platform),
        // As region-usage.ts takes the members: a group's launches are shared tenancy unless its template says.
        tenancy: 'default',
        launchTimeMs: instance.launchTime.getTime(),
        group: instance.tags[GROUP_NAME_TAG],
        readNow: true,
      }

/** The listing with the doubted instances as read now: kept if they run on demand, dropped if not. */
export const settledListing = (
  listed: readonly RunningOnDemand[],
  doubts: readonly string[],
  read: readonly Instance[],
): RunningOnDemand[] => {
  const doubted = new Set(doubts)
  return [
    ...listed.filter((i) => !doubted.has(i.id)),
    ...read.flatMap((i) => (doubted.has(i.id) ? (runningOnDemandOf(i) ?? []) : [])),
  ]
}
