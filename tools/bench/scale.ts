/**
 * The engine's scale figures, each measured in a child process of its own (scale-probe.ts) so that CPU
 * time and memory belong to the measurement: a replacer pass over a large account, unconverged and
 * converged, and the API requests of a steady-state run as the number of groups grows.
 */
import { fileURLToPath } from 'node:url'
import { runTypeScript } from '../shared/subprocess.ts'
import type { ScaleFigures } from './results.ts'
import {
  type PlanMeasurement,
  type PlanShape,
  PROBE_PREFIX,
  type ProbeRequest,
  type SteadyMeasurement,
} from './scale-probe.ts'

const PROBE = fileURLToPath(new URL('./scale-probe.ts', import.meta.url))

export interface ScaleSize {
  readonly regions: number
  readonly groupsPerRegion: number
  readonly instancesPerGroup: number
  /** Groups in one region for the steady-state API call counts. */
  readonly steadyGroups: readonly number[]
}

/** The account: 20 regions × 500 groups × 10 instances. */
export const FULL_SCALE: ScaleSize = {
  regions: 20,
  groupsPerRegion: 500,
  instancesPerGroup: 10,
  steadyGroups: [10, 50, 100, 250, 500, 1000],
}

export const QUICK_SCALE: ScaleSize = {
  regions: 2,
  groupsPerRegion: 20,
  instancesPerGroup: 10,
  steadyGroups: [5, 20],
}

/**
 * A planning pass measured several times: the run with the median CPU time, every run's CPU, and every
 * run's ratio of the engine's CPU to the reference workload's (reference-workload.ts) in that process.
 */
export type MedianPlan = PlanMeasurement & {
  readonly cpuMsRuns: readonly number[]
  readonly referenceRatioRuns: readonly number[]
}

/**
 * Planning passes per state. A shared 2-core VM gives the same pass 1.1 to 2.2 s of CPU from one run to
 * the next (steal time, parallel GC threads), so one run says little; the median of three says more.
 */
export const PLAN_RUNS = 3

/**
 * Warm passes, the one a target is set on: what a scheduled container pays. Five, so that one slow run
 * (another process on the machine, a GC thread delayed) cannot move the median.
 */
export const WARM_RUNS = 5

/** (max − min) / median of a list of positive figures, in percent: how far repeated runs spread. */
export const spreadPct = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0
  if (median <= 0 || sorted.length < 2) return 0
  return Math.round((10_000 * ((sorted.at(-1) as number) - (sorted[0] as number))) / median) / 100
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

const ratioOf = (m: PlanMeasurement): number =>
  m.referenceCpuMs > 0 ? Math.round((1000 * m.cpuMs) / m.referenceCpuMs) / 1000 : Number.NaN

export interface ScaleDetails {
  readonly unconverged: MedianPlan
  readonly converged: MedianPlan
  /** The unconverged pass as deployed: one invocation per region or chunk of groups (informative). */
  readonly byInvocation: MedianPlan
  /** The unconverged pass run a second time in the same process, as a warm container would (informative). */
  readonly warm: MedianPlan
  readonly steady: readonly SteadyMeasurement[]
}

const runProbe = async <T extends PlanMeasurement | SteadyMeasurement>(request: ProbeRequest): Promise<T> => {
  // --expose-gc: the probe collects garbage before it measures, so earlier work does not count.
  const stdout = await runTypeScript(PROBE, [JSON.stringify(request)], ['--expose-gc'])
  const line = stdout.split('\n').find((candidate) => candidate.startsWith(PROBE_PREFIX))
  if (line === undefined) throw new Error(`scale probe printed no measurement:\n${stdout}`)
  return JSON.parse(line.slice(PROBE_PREFIX.length)) as T
}

/** One kind of planning pass, `runs` times, each in a probe process of its own. */
export const planPasses = async (
  size: ScaleSize,
  runs: number,
  pass: { readonly state: 'unconverged' | 'converged'; readonly shape?: PlanShape; readonly warm?: boolean },
): Promise<PlanMeasurement[]> => {
  const passes: PlanMeasurement[] = []
  for (let run = 0; run < runs; run++)
    passes.push(
      await runProbe<PlanMeasurement>({
        mode: 'plan',
        state: pass.state,
        shape: pass.shape ?? 'at-once',
        warm: pass.warm ?? false,
        regions: size.regions,
        groupsPerRegion: size.groupsPerRegion,
        instancesPerGroup: size.instancesPerGroup,
      }),
    )
  return passes
}

export const measureScale = async (
  size: ScaleSize,
  onStep: (step: string) => void = () => {},
): Promise<{ figures: ScaleFigures; details: ScaleDetails }> => {
  const plan = async (
    state: 'unconverged' | 'converged',
    shape: PlanShape = 'at-once',
    warm = false,
  ): Promise<MedianPlan> => {
    onStep(
      `planning ${size.regions} regions × ${size.groupsPerRegion} groups × ${size.instancesPerGroup} instances, ${state}, ${shape}${warm ? ', warm' : ''}`,
    )
    const runs = await planPasses(size, warm ? WARM_RUNS : PLAN_RUNS, { state, shape, warm })
    const sorted = [...runs].sort((a, b) => a.cpuMs - b.cpuMs)
    const middle = sorted[Math.floor(sorted.length / 2)] as PlanMeasurement
    return { ...middle, cpuMsRuns: runs.map((r) => r.cpuMs), referenceRatioRuns: runs.map(ratioOf) }
  }
  const unconverged = await plan('unconverged')
  const converged = await plan('converged')
  const byInvocation = await plan('unconverged', 'by-invocation')
  const warm = await plan('unconverged', 'at-once', true)
  const steady: SteadyMeasurement[] = []
  for (const groups of size.steadyGroups) {
    onStep(`steady-state API calls, ${groups} groups`)
    steady.push(
      await runProbe<SteadyMeasurement>({
        mode: 'steady',
        groupsPerRegion: groups,
        instancesPerGroup: size.instancesPerGroup,
      }),
    )
  }
  return {
    figures: {
      regions: size.regions,
      groups: unconverged.groups,
      instances: unconverged.instances,
      planCpuMs: Math.max(unconverged.cpuMs, converged.cpuMs),
      // The converged process's memory is mostly what converging it left behind: see the details.
      peakRssMb: unconverged.peakRssMb,
      warmPlanCpuMs: warm.cpuMs,
      warmPeakRssMb: warm.peakRssMb,
      referenceRatio: median(warm.referenceRatioRuns),
      referenceRatioSpreadPct: spreadPct(warm.referenceRatioRuns),
      steadyStateApiCalls: steady.map((s) => [s.groups, s.calls] as const),
    },
    details: { unconverged, converged, byInvocation, warm, steady },
  }
}
