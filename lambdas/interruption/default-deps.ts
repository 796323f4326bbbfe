/**
 * The real wiring: one AWS adapter per region (created on first use and kept for the container's
 * life), Powertools telemetry, the wall clock.
 */
import { createAwsCloud } from '../aws/cloud.ts'
import { createLogger, createMetrics, emfMetricsSink, powertoolsLog } from '../telemetry.ts'
import type { InterruptionCloud, InterruptionDeps } from './deps.ts'

const SERVICE = 'spotswap-interruption'

export const defaultDeps = (
  env: Readonly<Record<string, string | undefined>> = process.env,
): InterruptionDeps => {
  const clouds = new Map<string, InterruptionCloud>()
  return {
    env,
    cloudFor: (region) => {
      let cloud = clouds.get(region)
      if (cloud === undefined) {
        cloud = createAwsCloud(region)
        clouds.set(region, cloud)
      }
      return cloud
    },
    log: powertoolsLog(createLogger(SERVICE)),
    metrics: emfMetricsSink(createMetrics(SERVICE)),
    now: () => new Date(),
  }
}
