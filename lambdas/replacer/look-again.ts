/**
 * Asks for the early looks core/region/look-again.ts decides (a delayed run request per group). Never on
 * a dry run, and a failed request is only logged: the next scheduled run looks anyway.
 */
import type { GlobalConfig } from '../core/config/config.ts'
import type { Log } from '../core/log.ts'
import { looksToRequest, type RunOfGroup } from '../core/region/look-again.ts'

/** Asks for a run of one group after a delay; with a warm-up look, the later look its open swap asks for. */
export type RequestRun = (
  group: string,
  delaySeconds: number,
  why: 'swap' | 'warm-up',
  swapDelaySeconds?: number,
) => Promise<void>

export const requestLooks = async (
  options: {
    readonly requestRun?: RequestRun
    readonly config: GlobalConfig
    readonly log: Log
    readonly region: string
  },
  groups: readonly RunOfGroup[],
): Promise<void> => {
  const { requestRun, config, log, region } = options
  if (requestRun === undefined || config.dryRun) return
  for (const look of looksToRequest(groups, config.scheduleMinutes)) {
    try {
      await requestRun(look.group, look.delaySeconds, look.why, look.swapDelaySeconds)
    } catch (error) {
      log.warn('could not request an early look at the group; the next scheduled run looks', {
        region,
        group: look.group,
        delaySeconds: look.delaySeconds,
        error: String(error),
      })
    }
  }
}
