/**
 * The replacer and the AWS adapter as deployed, loaded fresh for one moto test (their SDK clients are
 * memoised per module, and must pick up this test's moto account), with every API call recorded.
 */

import { vi } from 'vitest'
import type { ApiCallName } from '../../../lambdas/aws/context.ts'
import { silentLog } from '../../../lambdas/core/log.ts'
import type { CloudPort } from '../../../lambdas/core/port.ts'

/** Puts back every environment variable a test set (REGIONS, ...). */
export const withEnvRestored = (): (() => void) => {
  const saved = { ...process.env }
  return () => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key]
    Object.assign(process.env, saved)
  }
}

export const loadCloud = async (
  region: string,
  onApiCall: (name: ApiCallName) => void,
): Promise<CloudPort> => {
  vi.resetModules()
  const { createAwsCloud } = await import('../../../lambdas/aws/cloud.ts')
  return createAwsCloud(region, { onApiCall, logger: silentLog, markerKeyArn: process.env.MARKER_KEY_ARN })
}

/** An action of a run as the replacer's summary reports it. */
export interface RunAction {
  readonly kind: string
  readonly status: string
  readonly retire?: string
}

export interface ReplacerRun {
  /** The actions on `group`. */
  readonly actions: readonly RunAction[]
  /** Every API call of the run, in order. */
  readonly calls: readonly ApiCallName[]
}

/**
 * The replacer as deployed for the regions in REGIONS = `region`, except for the clock and the run-request
 * queue, which records the early looks asked for (a test delivers them, as SQS would, when it chooses).
 * `run` fails on a summary that is not ok.
 */
export const loadReplacer = async (region: string, group: string, clock: () => Date) => {
  vi.resetModules()
  process.env.REGIONS = region
  const { createHandler } = await import('../../../lambdas/replacer/create-handler.ts')
  const { defaultDeps } = await import('../../../lambdas/replacer/default-deps.ts')
  const { createAwsCloud } = await import('../../../lambdas/aws/cloud.ts')
  const calls: ApiCallName[] = []
  const looks: { group: string; delaySeconds: number }[] = []
  const defaults = defaultDeps()
  const cloud = createAwsCloud(region, {
    onApiCall: (name) => calls.push(name),
    logger: defaults.log,
    markerKeyArn: process.env.MARKER_KEY_ARN,
  })
  const handle = createHandler({
    ...defaults,
    now: clock,
    cloudFor: () => cloud,
    requestRun: async (_region, requested, delaySeconds) => {
      looks.push({ group: requested, delaySeconds })
    },
  })
  const run = async (event: unknown): Promise<ReplacerRun> => {
    const before = calls.length
    const summary = await handle(event)
    if (!summary.ok) throw new Error(`replacer run failed: ${JSON.stringify(summary.regions)}`)
    const actions = summary.regions[0]?.groups?.find((g) => g.group === group)?.actions ?? []
    return { actions: actions as RunAction[], calls: calls.slice(before) }
  }
  return { run, looks }
}
