import { describe, expect, it } from 'vitest'
import type { GroupPlan } from '../../lambdas/core/plan/actions.ts'
import type { OnDemandCode, OnDemandStatus } from '../../lambdas/core/plan/reasons.ts'
import type { RegionResult } from '../../lambdas/replacer/run-region.ts'
import { planRegion, planText } from '../../tools/cli/plan-report.ts'

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

const status = (instanceId: string, code: OnDemandCode, detail: string, saving?: number): OnDemandStatus => ({
  instanceId,
  type: 'm5.large',
  zone: 'us-east-1a',
  code,
  detail,
  progress: code === 'launching',
  ...(saving === undefined ? {} : { projectedHourlySavingsUsd: saving }),
})

const web: GroupPlan = {
  group: 'web',
  region: 'us-east-1',
  skipped: undefined,
  actions: [launch('i-1', 0.06), launch('i-2', 0.06)],
  instanceSkips: [{ instanceId: 'i-3', code: 'protected-from-scale-in', reason: 'protected-from-scale-in' }],
  onDemand: [
    status('i-1', 'launching', 'on-demand m5.large above the minimum', 0.06),
    status('i-2', 'launching', 'on-demand m5.large above the minimum', 0.06),
    status('i-3', 'protected-from-scale-in', ''),
    status(
      'i-4',
      'in-flight-budget',
      '2 replacement(s) at a time, taken by a launch for i-1, a launch for i-2',
      0.05,
    ),
    status('i-5', 'on-demand-minimum', 'the group keeps 1 on-demand instance(s)'),
  ],
  figures,
}
const quiet: GroupPlan = {
  ...web,
  group: 'nightly',
  skipped: 'outside-cron-window (9-18 1-5 UTC, state on)',
  actions: [],
  instanceSkips: [],
  onDemand: [],
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

  it('projects what spot saves now plus replacing every on-demand member spotswap replaces, not only this run’s', () => {
    // 0.05 now + 0.06 + 0.06 launching + 0.05 for i-4, which waits for the budget; i-3 (protected) and
    // i-5 (the minimum) stay on-demand.
    expect(region.groups[0]).toMatchObject({ group: 'web', managed: true, projectedHourlySavingsUsd: 0.22 })
    expect(region.groups[0]?.projectedMonthlySavingsUsd).toBeCloseTo(0.22 * 730.5, 6)
    expect(region.groups[0]?.stillOnDemand.map((s) => s.instanceId)).toEqual(['i-3', 'i-4'])
    expect(region.groups.map((g) => [g.group, g.managed, g.skipped])).toEqual([
      ['web', true, undefined],
      ['nightly', true, 'outside-cron-window (9-18 1-5 UTC, state on)'],
      ['db', false, 'not-managed: opt-in needs spot-enabled=true'],
    ])
  })

  it('prints one row per group, the total, and every instance left alone with its reason', () => {
    const text = planText({ dryRun: true, regions: [region], configErrors: [], apiCalls: {} })
    expect(text).toMatch(/^us-east-1\s+web\s+3\/1\s+25%\s+2× launch-spot\s+\$0\.22\s+\$160\.71\s*$/m)
    expect(text).toMatch(/^us-east-1\s+nightly\s+.*outside-cron-window/m)
    expect(text).toMatch(/^us-east-1\s+db\s+-\s+-\s+none\s+\$0\.00\s+\$0\.00\s+not-managed/m)
    expect(text).toContain('  us-east-1 web\n')
    expect(text).toContain('    i-3 stays on-demand (m5.large, us-east-1a): protected-from-scale-in\n')
    expect(text).toContain(
      '    i-4 stays on-demand (m5.large, us-east-1a): in-flight-budget: 2 replacement(s) at a time, taken by a launch for i-1,\n      a launch for i-2\n',
    )
    // What it would launch for i-1: its type, then the candidates (no price read in this test).
    expect(text).toContain('    i-1 m5.large ($?/h on-demand, us-east-1b)\n      → m5d.large $?\n')
    expect(text).not.toContain('i-3: protected-from-scale-in')
    expect(text).toContain('Projected savings once done: $0.27/hour, $197.24/month')
  })
})
