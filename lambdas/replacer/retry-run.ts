/**
 * A region run that fails before it acts (a region-level read failing after the SDK's retries: the group
 * listing, the launched instances, the catalogue, prices) asks once for another run of its scope, a
 * minute later, instead of leaving its lane until the next scheduled run (core/region/look-again.ts
 * retryAfterFailure decides, and bounds it). The failure is still the run's: it is thrown on, and a
 * request that cannot be sent is only logged.
 */
import type { GlobalConfig } from '../core/config/config.ts'
import type { Log } from '../core/log.ts'
import type { CloudPort } from '../core/port.ts'
import { retryAfterFailure } from '../core/region/look-again.ts'

export const retryingOnFailure = async <T>(
  options: {
    readonly cloud: Pick<CloudPort, 'region'>
    readonly config: Pick<GlobalConfig, 'dryRun'>
    readonly log: Log
    readonly retry?: boolean
    readonly requestRetry?: (delaySeconds: number) => Promise<void>
  },
  run: () => Promise<T>,
): Promise<T> => {
  try {
    return await run()
  } catch (error) {
    const { requestRetry, log } = options
    const retry = retryAfterFailure({ retry: options.retry === true, dryRun: options.config.dryRun })
    if (requestRetry !== undefined && retry !== undefined) {
      const region = options.cloud.region
      try {
        await requestRetry(retry.delaySeconds)
        log.info('region run failed: another run asked for', { region, delaySeconds: retry.delaySeconds })
      } catch (requestError) {
        log.warn('could not ask for another run; the next scheduled run looks', {
          region,
          error: String(requestError),
        })
      }
    }
    throw error
  }
}
