/**
 * The real wiring: one AWS adapter per region (created on first use and kept for the container's
 * life), Powertools telemetry, the wall clock, and the run-request queue when RUN_REQUEST_QUEUE_URL is
 * set (without it, doomed members leave their group at once instead of being replaced ahead), and the
 * deadline queue for the handler's own reminders when DEADLINE_QUEUE_URL is set.
 */
import { createAwsCloud } from '../aws/cloud.ts'
import { sendDelayedMessages, sendRunRequests } from '../aws/run-request-queue.ts'
import { interruptionDeadlineEvent } from '../core/events/definitions.ts'
import { createLogger, createMetrics, emfMetricsSink, powertoolsLog } from '../telemetry.ts'
import type { InterruptionCloud, InterruptionDeps } from './deps.ts'

const SERVICE = 'spotswap-interruption'

export const defaultDeps = (
  env: Readonly<Record<string, string | undefined>> = process.env,
): InterruptionDeps => {
  const clouds = new Map<string, InterruptionCloud>()
  const queueUrl = env.RUN_REQUEST_QUEUE_URL?.trim()
  const deadlineQueueUrl = env.DEADLINE_QUEUE_URL?.trim()
  const now = (): Date => new Date()
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
    now,
    ...(queueUrl
      ? { requestRuns: (region, group, delays) => sendRunRequests(queueUrl, region, group, delays, now()) }
      : {}),
    ...(deadlineQueueUrl
      ? {
          requestDeadline: (region, instanceId, delaySeconds) =>
            sendDelayedMessages(deadlineQueueUrl, [
              { body: JSON.stringify(interruptionDeadlineEvent(region, instanceId, now())), delaySeconds },
            ]),
        }
      : {}),
  }
}
