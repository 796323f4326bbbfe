/**
 * The replacer Lambda. Thin: wires the AWS adapter, Powertools and the clock into createReplacer.
 * Invoked by the schedule, by fan-out SQS messages and by `EC2 Instance Launch Successful` events.
 */
import { createAwsCloud, createRegionDirectory } from '../aws/cloud.ts'
import { sendFanoutMessages } from '../aws/fanout-queue.ts'
import { sendRunRequests } from '../aws/run-request-queue.ts'
import type { CloudPort } from '../core/port.ts'
import { createLogger, createMetrics, emfMetricsSink, powertoolsLog } from '../telemetry.ts'
import { createReplacer, type ReplacerDeps } from './replacer.ts'

export const defaultDeps = (): ReplacerDeps => {
  const log = powertoolsLog(createLogger('spotswap-replacer'))
  const clouds = new Map<string, CloudPort>()
  const runRequestQueue = process.env.RUN_REQUEST_QUEUE_URL?.trim()
  return {
    env: process.env,
    now: () => new Date(),
    log,
    metrics: emfMetricsSink(createMetrics('spotswap-replacer')),
    cloudFor: (region) => {
      const cloud = clouds.get(region) ?? createAwsCloud(region, { logger: log })
      clouds.set(region, cloud)
      return cloud
    },
    regionDirectory: createRegionDirectory(),
    enqueue: sendFanoutMessages,
    ...(runRequestQueue
      ? {
          requestRun: (region, group, delay) =>
            sendRunRequests(runRequestQueue, region, group, [delay], new Date()),
        }
      : {}),
  }
}

export const createHandler = (deps: ReplacerDeps) => {
  const replace = createReplacer(deps)
  return (event: unknown, _context?: unknown) => replace(event)
}

export const handler = createHandler(defaultDeps())
