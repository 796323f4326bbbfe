/**
 * The real wiring: one AWS adapter per region (created on first use and kept for the container's
 * life) over the real SDK clients, Powertools telemetry, the wall clock, and the run-request queue when
 * RUN_REQUEST_QUEUE_URL is set (without it, doomed members leave their group at once instead of being
 * replaced ahead), and the deadline queue for the handler's own reminders when DEADLINE_QUEUE_URL is set.
 *
 * sdk-clients.ts is imported statically so that the SDK loads in the Init phase, not in the first
 * warning's invocation. Lambda runs Init once per execution environment, before the first event and
 * within its own 10-second limit rather than the function's timeout
 * (https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtime-environment.html), and gives on-demand
 * functions a full vCPU there (AWS's Serverless Land guide,
 * https://serverlessland.com/content/service/lambda/guides/effectively-running-java-on-serverless/init-heavy-lifting).
 * An invocation at 512 MB gets about 0.29 vCPU (CPU is proportional to memory, 1,769 MB = one vCPU:
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html), and a warning gives two minutes.
 */
import { createAwsCloud } from '../aws/cloud.ts'
import { killSwitchFromEnv } from '../aws/kill-switch.ts'
import { sendDelayedMessages, sendRunRequests } from '../aws/run-request-queue.ts'
import { sdkClients } from '../aws/sdk-clients.ts'
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
  const log = powertoolsLog(createLogger(SERVICE))
  const killSwitch = killSwitchFromEnv(env)
  return {
    env,
    cloudFor: (region) => {
      let cloud = clouds.get(region)
      if (cloud === undefined) {
        cloud = createAwsCloud(region, {
          clients: sdkClients(region),
          logger: log,
          markerKeyArn: env.MARKER_KEY_ARN || undefined,
        })
        clouds.set(region, cloud)
      }
      return cloud
    },
    log,
    metrics: emfMetricsSink(createMetrics(SERVICE)),
    now,
    ...(killSwitch ? { killSwitch } : {}),
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
