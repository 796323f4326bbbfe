/**
 * The real wiring: one AWS adapter per region (created on first use and kept for the container's life)
 * over the real SDK clients, Powertools telemetry, the wall clock, the fan-out queue, and the run-request
 * queue when RUN_REQUEST_QUEUE_URL is set (without it, the next scheduled run is the next look at a group).
 * sdk-clients.ts is imported statically so the SDK loads at init, not in the first run (see the
 * interruption handler's default-deps.ts for why).
 */
import { createAwsCloud, createRegionDirectory } from '../aws/cloud.ts'
import { changeFanoutVisibility, sendFanoutMessages } from '../aws/fanout-queue.ts'
import { killSwitchFromEnv } from '../aws/kill-switch.ts'
import { sendRetryRequest, sendRunRequests } from '../aws/run-request-queue.ts'
import { sdkClients } from '../aws/sdk-clients.ts'
import type { CloudPort } from '../core/port.ts'
import { createLogger, createMetrics, emfMetricsSink, powertoolsLog } from '../telemetry.ts'
import type { ReplacerDeps } from './deps.ts'

const SERVICE = 'spotswap-replacer'

export const defaultDeps = (
  env: Readonly<Record<string, string | undefined>> = process.env,
): ReplacerDeps => {
  const log = powertoolsLog(createLogger(SERVICE))
  const clouds = new Map<string, CloudPort>()
  const runRequestQueue = env.RUN_REQUEST_QUEUE_URL?.trim()
  const killSwitch = killSwitchFromEnv(env)
  return {
    env,
    now: () => new Date(),
    log,
    metrics: emfMetricsSink(createMetrics(SERVICE)),
    cloudFor: (region) => {
      const cloud =
        clouds.get(region) ??
        createAwsCloud(region, {
          clients: sdkClients(region),
          logger: log,
          markerKeyArn: env.MARKER_KEY_ARN || undefined,
        })
      clouds.set(region, cloud)
      return cloud
    },
    regionDirectory: createRegionDirectory(),
    enqueue: sendFanoutMessages,
    changeVisibility: changeFanoutVisibility,
    ...(killSwitch ? { killSwitch } : {}),
    ...(runRequestQueue
      ? {
          requestRun: (region, group, delay) =>
            sendRunRequests(runRequestQueue, region, group, [delay], new Date()),
          requestRetry: (region, scope, delay) =>
            sendRetryRequest(runRequestQueue, region, scope, delay, new Date()),
        }
      : {}),
  }
}
