/**
 * The real wiring: one AWS adapter per region (created on first use and kept for the container's
 * life), Powertools telemetry, the wall clock.
 */
import { createAwsCloud } from '../aws/cloud.ts'
import type { CloudPort } from '../core/port.ts'
import { createLogger, createMetrics, emfMetricsSink, powertoolsLog } from '../telemetry.ts'
import type { InterruptionCloud, InterruptionDeps } from './deps.ts'

const SERVICE = 'spotswap-interruption'

/** Raised when the adapter cannot tag instances, which rebalance `replace` needs. */
export class InstanceTaggingUnsupportedError extends Error {
  override readonly name = 'InstanceTaggingUnsupportedError'
}

/**
 * CloudPort has no tagInstances yet (it only untags). Until it does, rebalance `replace` fails loudly
 * through this bridge (logged, counted, not retried) instead of silently doing nothing; every other
 * action works. Delete the bridge once the port and adapter carry tagInstances.
 */
const withInstanceTagging = (
  cloud: CloudPort & Partial<Pick<InterruptionCloud, 'tagInstances'>>,
): InterruptionCloud => ({
  region: cloud.region,
  describeInstances: (ids) => cloud.describeInstances(ids),
  groupOfInstances: (ids) => cloud.groupOfInstances(ids),
  describeGroups: (query) => cloud.describeGroups(query),
  lifecycleHooks: (name) => cloud.lifecycleHooks(name),
  detachInstances: (name, ids, decrement) => cloud.detachInstances(name, ids, decrement),
  terminateInGroup: (id, decrement) => cloud.terminateInGroup(id, decrement),
  terminateInstances: (ids) => cloud.terminateInstances(ids),
  untagInstances: (ids, keys) => cloud.untagInstances(ids, keys),
  tagInstances: async (ids, tags) => {
    if (cloud.tagInstances === undefined) {
      throw new InstanceTaggingUnsupportedError(
        `the AWS adapter cannot tag instances (wanted ${Object.keys(tags).join(', ')})`,
      )
    }
    await cloud.tagInstances(ids, tags)
  },
})

export const defaultDeps = (
  env: Readonly<Record<string, string | undefined>> = process.env,
): InterruptionDeps => {
  const clouds = new Map<string, InterruptionCloud>()
  return {
    env,
    cloudFor: (region) => {
      let cloud = clouds.get(region)
      if (cloud === undefined) {
        cloud = withInstanceTagging(createAwsCloud(region))
        clouds.set(region, cloud)
      }
      return cloud
    },
    log: powertoolsLog(createLogger(SERVICE)),
    metrics: emfMetricsSink(createMetrics(SERVICE)),
    now: () => new Date(),
  }
}
