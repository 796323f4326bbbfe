/** Where and on what the benchmark ran: the commit, the date and the machine, for results.json. */
import { execFileSync } from 'node:child_process'
import { cpus, platform, release, totalmem } from 'node:os'
import { REPOSITORY } from './subprocess.ts'

const git = (...args: string[]): string =>
  execFileSync('git', args, { cwd: REPOSITORY, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()

/** What the figures depend on: the engine, its adapters and handlers, the simulator, the data, the bench. */
const MEASURED_PATHS = [
  'lambdas/core',
  'lambdas/aws',
  'lambdas/replacer',
  'lambdas/interruption',
  'lambdas/telemetry.ts',
  'tools/sim',
  'lambdas/data',
  'tools/data',
  'tools/shared',
  'tools/bench',
  'scripts/measure-cold-start.ts',
  'bench/scenarios',
]

/** The short commit, marked `+changes` when code the figures depend on differs from it. */
export const currentCommit = (paths: readonly string[] = MEASURED_PATHS): string => {
  try {
    const commit = git('rev-parse', '--short', 'HEAD')
    const changed = git('status', '--porcelain', '--', ...paths) !== ''
    return changed ? `${commit}+changes` : commit
  } catch {
    return 'unknown (not a git checkout)'
  }
}

export const machineDescription = (): string => {
  const processors = cpus()
  const model = processors[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU'
  const memoryGiB = Math.round(totalmem() / 1024 ** 3)
  return `${processors.length} × ${model}, ${memoryGiB} GiB, ${platform()} ${release()}, node ${process.version}`
}
