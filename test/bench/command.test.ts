import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OPTIONS, outputPaths } from '../../tools/bench/bench-command.ts'
import { renderResultsMarkdown } from '../../tools/bench/render-markdown.ts'
import { renderResultsText, scenarioNotes } from '../../tools/bench/render-table.ts'
import { type BenchResults, POLICY_KEYS, SCENARIO_KEYS } from '../../tools/bench/results.ts'
import type { ScaleDetails } from '../../tools/bench/scale.ts'
import { checkTargets } from '../../tools/bench/targets.ts'
import { parseOptions } from '../../tools/shared/args.ts'
import { REPOSITORY } from '../../tools/shared/subprocess.ts'
import { INVARIANTS } from '../../tools/sim/invariant-list.ts'
import { runCli } from '../cli/support.ts'
import { faultSweep } from './sweep-fixture.ts'

describe('spotswap bench', () => {
  it('is a command of the CLI with its own help', async () => {
    const help = await runCli(['bench', '--help'])
    expect(help.code).toBe(0)
    expect(help.out).toContain('--quick')
    expect((await runCli(['--help'])).out).toMatch(/bench\s+benchmark spotswap/)
  })

  it('refuses a fault sweep in no process before measuring anything', async () => {
    const run = await runCli(['bench', '--jobs', '0'])
    expect(run.code).toBe(2)
    expect(run.err).toContain("--jobs must be an integer of at least 1, got '0'")
  })

  it.each([
    [[], join(REPOSITORY, 'bench/out/results.json'), join(REPOSITORY, 'bench/out/RESULTS.md')],
    [['--committed'], join(REPOSITORY, 'bench/results.json'), join(REPOSITORY, 'bench/RESULTS.md')],
    [['--quick'], '/scratch/results.json', undefined],
    [['--out', 'r.json', '--markdown', 'r.md'], 'r.json', 'r.md'],
  ])('with %j writes %s and %s: the committed results only when asked', (argv, out, markdown) => {
    expect(outputPaths(parseOptions(argv, OPTIONS), '/scratch')).toEqual({ out, markdown })
  })

  it('refuses to write quick results over the committed ones, before measuring anything', async () => {
    const run = await runCli(['bench', '--quick', '--committed'])
    expect(run.code).toBe(2)
    expect(run.err).toContain('--quick results are not the committed ones')
  })

  it('refuses an unknown option before measuring anything', async () => {
    const run = await runCli(['bench', '--fast'])
    expect(run.code).toBe(2)
    expect(run.err).toContain('unknown option --fast')
  })
})

const plan = (state: 'unconverged' | 'converged') => ({
  mode: 'plan' as const,
  state,
  shape: 'at-once' as const,
  warm: false,
  regions: 2,
  groups: 4,
  instances: 40,
  unconvergedGroups: state === 'unconverged' ? 4 : 0,
  cpuMs: 12,
  processCpuMs: 15,
  simulatedAwsCpuMs: 3,
  meteringOverheadMs: 1,
  cpuMsRuns: [14, 12, 11],
  wallMs: 10,
  peakRssMb: 120,
  rssBeforeMb: 100,
  apiCalls: { 'ec2:DescribeInstances': 2 },
  referenceCpuMs: 6,
  referenceRatioRuns: [2, 2, 2],
})

describe('the results page and table', () => {
  const figures = {
    savingsPct: 50,
    fairSavingsPct: 49.9,
    unservedCapacityHours: 0.25,
    capacityAvailabilityPct: 99.95,
    servingAvailabilityPct: 99.9,
    convergenceMinutes: 15,
    interruptions: 2,
    replacements: 8,
    apiCallsPerRun: 4,
  }
  const pools = { web: { 'm5.large/us-east-1b': 2, 'm5a.large/us-east-1a': 1 } }
  const extra = (policy: string) =>
    policy === 'oracle'
      ? { savingsPct: 60, zoneBalancedOracleSavingsPct: 55 }
      : policy === 'asg-lowest-price'
        ? { spotPoolsByGroup: pools }
        : policy === 'asg-price-capacity-optimized'
          ? { spotPoolsByGroup: { web: { 'm5.large/us-east-1b': 3 } } }
          : {}
  const results: BenchResults = {
    commit: 'abc1234',
    date: '2022-05-31T18:00:00.000Z',
    machine: '2 × test CPU',
    scenarios: Object.fromEntries(
      SCENARIO_KEYS.map((s) => [
        s,
        Object.fromEntries(POLICY_KEYS.map((p) => [p, { ...figures, ...extra(p) }])),
      ]),
    ),
    faultSweep: faultSweep(),
    scale: {
      regions: 2,
      groups: 4,
      instances: 40,
      planCpuMs: 12,
      peakRssMb: 120,
      steadyStateApiCalls: [[5, 3]],
    },
    lambda: { replacer: { bundleBytes: 2048, initMs: 300 } },
  }
  const scale: ScaleDetails = {
    unconverged: plan('unconverged'),
    converged: plan('converged'),
    warm: { ...plan('unconverged'), warm: true, cpuMs: 7, cpuMsRuns: [7, 8, 6] },
    byInvocation: {
      ...plan('unconverged'),
      shape: 'by-invocation',
      invocations: { count: 4, largestCpuMs: 5 },
      cpuMs: 13,
      cpuMsRuns: [13, 16, 12],
    },
    steady: [
      { mode: 'steady', groups: 5, calls: 3, apiCalls: { 'autoscaling:DescribeAutoScalingGroups': 1 } },
    ],
  }
  const details = {
    scenarios: Object.fromEntries(SCENARIO_KEYS.map((s) => [s, { violations: { spotswap: 0 } }])),
    scale,
    lambda: [],
  }

  it('gives every figure with its ratio to spotswap and says which targets were missed', () => {
    const targets = checkTargets(results)
    const text = renderResultsText(results, targets)
    expect(text).toMatch(
      /oracle\s+60\.00%\s+1\.20×\s+49\.90%\s+1\.00×\s+0\.25\s+1\.00×\s+99\.950%\s+1\.00×\s+99\.900%\s+1\.00×\s+15 min\s+1\.00×/,
    )
    expect(text).toContain("MISSED  steady-web: savings ≥ 90% of the oracle's: 50.00% vs 60.00% = 83.3%")
    const page = renderResultsMarkdown(results, details, targets)
    expect(page).toContain('- Commit: abc1234')
    expect(page).toContain(
      '| spotswap | 50.00% (1.00×) | 49.90% (1.00×) | 0.25 (1.00×) | 99.950% (1.00×) | 99.900% (1.00×) | 15 min (1.00×) | 2 (1.00×) | 8 (1.00×) | 4.0 (1.00×) |',
    )
    for (const output of [text, page]) {
      expect(output).toContain(
        "Oracle held to Auto Scaling's zone balance: 55.00% savings; spotswap's 50.00% is 90.9% of it.",
      )
      expect(output).toContain(
        'Spot pools (launches) of asg-lowest-price: web: m5.large/us-east-1b ×2, m5a.large/us-east-1a ×1.',
      )
      expect(output).toContain(
        'Spot pools (launches) of asg-price-capacity-optimized: web: m5.large/us-east-1b ×3.',
      )
    }
    expect(text).toContain(
      "MISSED  steady-web: savings ≥ 95% of the zone-balanced oracle's: 50.00% vs 55.00% = 90.9%",
    )
    expect(page).toContain('Invariant violations: none.')
    // The fault sweep: what each level injects, then per scenario a row per policy and level.
    expect(page).toContain(
      "Levels, each in place of the scenario's own faults: none (no injected faults, throttling); api-errors (1% API errors, throttling); crashes (0.5% crashes per request, throttling); both (1% API errors and 0.5% crashes per request, throttling). 3 seeds per level",
    )
    expect(page).toContain('### gpu-fleet under faults')
    expect(page).toContain(
      '| spotswap | both | 20 min [20 min, 20 min, 20 min] | 20 min [20 min, 20 min, 20 min] | 0.0 [0.0, 0.0, 0.0] | 99.950% [99.950%, 99.950%, 99.950%] | 55.00% [55.00%, 55.00%, 55.00%] |',
    )
    expect(text).toMatch(/steady-web under faults\n.*Policy\s+Faults\s+Converged/)
    expect(text).toContain('MISSED  steady-web: savings')
    expect(page).toContain('No full chaos sweep recorded (bench/chaos-sweep.json).')
    // The planning figure is the median run; every run is shown beside it.
    expect(page).toContain(
      '| unconverged | 4 | 12 ms (runs: 14, 12, 11 ms; process 15 ms, of which simulated AWS 3 ms and metering it 1 ms) |',
    )
    expect(page).toContain(
      "its code compiled by V8, its caches filled), median of 3 runs: 7 ms CPU (runs: 7, 8, 6 ms; process 15 ms, of which simulated AWS 3 ms and metering it 1 ms); peak RSS 120 MB. Its CPU over the reference workload's in the same process (tools/bench/reference-workload.ts), run by run: 2, 2, 2",
    )
    expect(page).toContain(
      "one invocation per region or chunk of 200 groups (the fan-out queue's), one after another in one process as a warm container would take them: 4 invocations, 13 ms CPU in all (runs: 13, 16, 12 ms), the largest invocation 5 ms; peak RSS 120 MB (100 MB before); ec2:DescribeInstances 2.",
    )
  })

  it('says once when the two asg-* policies chose the same pools', () => {
    const same = { ...figures, spotPoolsByGroup: pools }
    const notes = scenarioNotes({ 'asg-lowest-price': same, 'asg-price-capacity-optimized': same })
    expect(notes).toEqual([
      'Spot pools (launches), the same for asg-lowest-price and asg-price-capacity-optimized: web: m5.large/us-east-1b ×2, m5a.large/us-east-1a ×1.',
    ])
  })

  it('shows each policy’s interruptions per instance-day beside its savings', () => {
    const notes = scenarioNotes({
      spotswap: { ...figures, interruptionsPerInstanceDay: 0.0125 },
      'on-demand': { ...figures, savingsPct: 0, interruptionsPerInstanceDay: 0 },
    })
    expect(notes).toContain(
      'Interruptions per instance-day (savings): spotswap 0.013 (50.00% saved), on-demand 0.000 (0.00% saved).',
    )
  })

  it('shows the on-demand minutes each on-demand launch of the groups cost, for the policies that had one', () => {
    const notes = scenarioNotes({
      spotswap: { ...figures, scaleOutLaunches: 8, scaleOutOnDemandMinutes: 6.25 },
      'asg-price-capacity-optimized': { ...figures, scaleOutLaunches: 0, scaleOutOnDemandMinutes: null },
      'on-demand': { ...figures, scaleOutLaunches: 8, scaleOutOnDemandMinutes: 300 },
    })
    expect(notes).toContain(
      'On-demand minutes per on-demand launch of the groups (launches): spotswap 6.3 (×8), on-demand 300.0 (×8).',
    )
    // Results written before these figures were measured show neither line.
    expect(scenarioNotes({ spotswap: figures })).toEqual([])
  })

  it('quotes the latest full chaos sweep, or says why its record is unusable', () => {
    const targets = checkTargets(results)
    const sweep = {
      commit: 'abc1234',
      date: '2026-11-26T01:00:00.000Z',
      machine: '2 cores',
      firstSeed: 1,
      runs: 10_000,
      passed: 10_000,
      failed: 0,
      failedSeeds: [],
      violations: 0,
      durationSeconds: 900,
    }
    expect(renderResultsMarkdown(results, details, targets, sweep)).toContain(
      'Latest full chaos sweep: 10,000 runs, seeds 1–10,000: 10,000 passed, 0 failed, violations = 0',
    )
    expect(renderResultsMarkdown(results, details, targets, { error: 'runs: expected a number' })).toContain(
      'bench/chaos-sweep.json is unusable: runs: expected a number.',
    )
    expect(renderResultsMarkdown(results, details, targets, sweep)).toContain(
      `(the ${INVARIANTS.length} invariants of [docs/reliability.md]`,
    )
  })
})
