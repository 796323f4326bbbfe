/**
 * The replacer's and the interruption handler's CloudPort under simulation: the real AWS adapter
 * (lambdas/aws/cloud.ts) over the simulated SDK clients of one region and one invocation (sdk/clients.ts),
 * so the adapter's request building, paging, batching and error classification run as they do in AWS.
 * The adapter caches are a Lambda container's, on simulated time: the world's warm one by default; a
 * replacer run beside another gets a container of its own (container-pool.ts).
 */
import { type AdapterCaches, createAwsCloud } from '../../lambdas/aws/cloud.ts'
import type { Log } from '../../lambdas/core/log.ts'
import type { CloudPort } from '../../lambdas/core/port.ts'
import type { Session } from './faults.ts'
import { simClients } from './sdk/clients.ts'
import type { World } from './world.ts'

export const simCloud = (
  world: World,
  region: string,
  session: Session,
  logger: Log,
  caches: AdapterCaches = world.adapterCaches,
): CloudPort =>
  createAwsCloud(region, {
    clients: simClients(world, region, session),
    logger,
    now: () => world.clock.now,
    caches,
    markerKeyArn: world.markerKey.arn,
  })
