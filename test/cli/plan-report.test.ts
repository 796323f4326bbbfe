import { describe, expect, it } from 'vitest'
import { planRegion, planText } from '../../lambdas/cli/plan-report.ts'
import type { GroupPlan } from '../../lambdas/core/actions.ts'
import type { RegionResult } from '../../lambdas/replacer/run-region.ts'

const figures = {
  inService: 4,
  spot: 1,
  onDemand: 3,
  minOnDemand: 1,
  hourlySavingsUsd: 0.05,
  hourlyCostUsd: 0.33,
}

const launch = (replacing: string, saving: number) => ({
  kind: 'launch-spot' as const,
  group: 'web',
  replacing,
  replacingType: 'm5.large',
  zone: 'us-east-1b',
  launchTemplate: undefined,
  launchConfigurationName: undefined,
  overrides: [{ instanceType: 'm5d.large', zone: 'us-east-1b', subnetId: undefined, priority: 0 }],
  allocationStrategy: 'price-capacity-optimized' as const,
  tags: {},
  clientToken: 't',
  capacityBackoffUntil: '2022-05-31T18:30:00.000Z',
  releaseIfNotLaunched: false,
  attempt: 1,
  attemptSince: '2022-05-31T18:00:00.000Z',
  expectedHourlySavingsUsd: saving,
  reason: 'cheaper',
})

const web: GroupPlan = {
  group: 'web',
  region: 'us-east-1',
  skipped: undefined,
  actions: [launch('i-1', 0.06), launch('i-2', 0.06)],
  instanceSkips: [{ instanceId: 'i-3', code: 'protected-from-scale-in', reason: 'protected-from-scale-in' }],
  onDemand: [],
  figures,
}
const quiet: GroupPlan = {
  ...web,
  group: 'nightly',
  skipped: 'outside-cron-window (9-18 1-5 UTC, state on)',
  actions: [],
  instanceSkips: [],
}

const result: RegionResult = {
  region: 'us-east-1',
  groups: [
    { plan: web, outcomes: web.actions.map((action) => ({ action, status: 'planned' as const })) },
    { plan: quiet, outcomes: [] },
  ],
  strays: [],
  configErrors: [],
}

describe('the plan report', () => {
  const region = planRegion(result, [{ name: 'db', reason: 'not-managed: opt-in needs spot-enabled=true' }])

  it('projects savings as what spot saves now plus what the planned launches are expected to save', () => {
    expect(region.groups[0]).toMatchObject({ group: 'web', managed: true, projectedHourlySavingsUsd: 0.17 })
    expect(region.groups[0]?.projectedMonthlySavingsUsd).toBeCloseTo(0.17 * 730.5, 6)
    expect(region.groups.map((g) => [g.group, g.managed, g.skipped])).toEqual([
      ['web', true, undefined],
      ['nightly', true, 'outside-cron-window (9-18 1-5 UTC, state on)'],
      ['db', false, 'not-managed: opt-in needs spot-enabled=true'],
    ])
  })

  it('prints one row per group, the total, and every instance left alone with its reason', () => {
    const text = planText({ dryRun: true, regions: [region], configErrors: [], apiCalls: {} })
    expect(text).toMatch(/^us-east-1\s+web\s+3\/1\s+25%\s+2× launch-spot\s+\$0\.17\s+\$124\.19\s*$/m)
    expect(text).toMatch(/^us-east-1\s+nightly\s+.*outside-cron-window/m)
    expect(text).toMatch(/^us-east-1\s+db\s+-\s+-\s+none\s+\$0\.00\s+\$0\.00\s+not-managed/m)
    expect(text).toContain('  us-east-1 web i-3: protected-from-scale-in')
    expect(text).toContain('Projected savings once done: $0.22/hour, $160.71/month')
  })
})
