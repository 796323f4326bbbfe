/** Small actions and plans for the tests of what a region run decides around the planner (core/region/). */
import type {
  Action,
  CompleteSwapAction,
  GroupPlan,
  LaunchSpotAction,
} from '../../lambdas/core/plan/actions.ts'
import type { OnDemandStatus } from '../../lambdas/core/plan/reasons.ts'

export const aLaunch = (replacing: string, overrides: Partial<LaunchSpotAction> = {}): LaunchSpotAction => ({
  kind: 'launch-spot',
  group: 'web',
  replacing,
  replacingType: 'm5.large',
  zone: 'us-east-1a',
  launchTemplate: undefined,
  launchConfigurationName: undefined,
  overrides: [],
  allocationStrategy: 'price-capacity-optimized',
  tags: {},
  clientToken: `${replacing}-1`,
  attempt: 1,
  attemptSince: '2022-05-31T22:00:00.000Z',
  capacityBackoffUntil: '2022-05-31T23:30:00.000Z',
  releaseIfNotLaunched: false,
  expectedHourlySavingsUsd: 0.05,
  reason: 'test',
  ...overrides,
})

export const aSwap = (...pairs: readonly [spot: string, onDemand: string][]): Action => ({
  kind: 'swap',
  group: 'web',
  pairs: pairs.map(([spotInstanceId, onDemandInstanceId]) => ({ spotInstanceId, onDemandInstanceId })),
  originalMaxSize: 4,
  raiseMaxSizeTo: undefined,
  swapId: 's1',
  swapRecord: 'attaching',
  attachedRecord: 'waiting',
  reason: 'test',
})

export const aCompletion = (
  spot: string,
  onDemand: string,
  overrides: Partial<CompleteSwapAction> = {},
): CompleteSwapAction => ({
  kind: 'complete-swap',
  group: 'web',
  pair: { spotInstanceId: spot, onDemandInstanceId: onDemand },
  retire: 'partner',
  record: `1/0/${onDemand}`,
  reason: 'test',
  ...overrides,
})

export const aRelease = (spot: string, onDemand: string): Action => ({
  kind: 'release-pair',
  group: 'web',
  pair: { spotInstanceId: spot, onDemandInstanceId: onDemand },
  reason: 'test',
})

export const aGiveBack = (instanceId: string): Action => ({
  kind: 'give-back',
  group: 'web',
  instanceId,
  record: `1/0/${instanceId}`,
  reason: 'test',
})

export const aClose = (): Action => ({ kind: 'close-swap', group: 'web', maxSize: 4, reason: 'test' })

export const aDoomedRelease = (instanceId: string): Action => ({
  kind: 'release-doomed',
  group: 'web',
  instanceId,
  reason: 'test',
})

export const aSettlement = (...instanceIds: string[]): Action => ({
  kind: 'settle-members',
  group: 'web',
  instanceIds,
  reason: 'test',
})

export const aTermination = (instanceId: string, inNoGroup?: boolean): Action => ({
  kind: 'terminate-spot',
  group: 'web',
  instanceId,
  reason: 'test',
  ...(inNoGroup === undefined ? {} : { inNoGroup }),
})

/** An on-demand member whose replacement is on its way. */
export const inProgress = (instanceId: string): OnDemandStatus => ({
  instanceId,
  type: 'm5.large',
  zone: 'us-east-1a',
  code: 'launching',
  detail: 'on-demand m5.large above the minimum',
  progress: true,
})

export const aPlan = (actions: readonly Action[], overrides: Partial<GroupPlan> = {}): GroupPlan => ({
  group: 'web',
  region: 'us-east-1',
  skipped: undefined,
  actions,
  instanceSkips: [],
  onDemand: [],
  figures: { inService: 0, spot: 0, onDemand: 0, minOnDemand: 0, hourlySavingsUsd: 0, hourlyCostUsd: 0 },
  ...overrides,
})
