/**
 * The kill switch as both Lambdas read it (core/region/kill-switch.ts): once per invocation that has
 * work, logged, and reported as a metric the dashboard shows.
 */
import type { Log, MetricsSink } from './core/log.ts'
import { Metric } from './core/metric-names.ts'
import { KILL_SWITCH_OFF, type KillSwitch, type KillSwitchMode } from './core/region/kill-switch.ts'

const MODE_VALUE: Record<KillSwitchMode, number> = { off: 0, on: 1, hard: 2 }

/** Reads the switch (off without a reader), logs and counts what was read. */
export const readKillSwitch = async (
  read: (() => Promise<KillSwitch>) | undefined,
  log: Log,
  metrics: MetricsSink,
): Promise<KillSwitch> => {
  // Not configured (the command line, tests, the simulator): off, and nothing to report.
  if (read === undefined) return KILL_SWITCH_OFF
  const killSwitch = await read()
  if (killSwitch.problem !== undefined) log.error('kill switch', { problem: killSwitch.problem })
  if (killSwitch.mode !== 'off') log.warn('kill switch is set: nothing new starts', { mode: killSwitch.mode })
  metrics.emit({}, [
    { name: Metric.KillSwitch, unit: 'Count', value: MODE_VALUE[killSwitch.mode] },
    ...(killSwitch.problem === undefined
      ? []
      : [{ name: Metric.KillSwitchUnreadable, unit: 'Count' as const, value: 1 }]),
  ])
  return killSwitch
}
