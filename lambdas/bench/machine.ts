/** Where and on what the benchmark ran: the commit, the date and the machine, for results.json. */
import { execFileSync } from 'node:child_process'
import { cpus, platform, release, totalmem } from 'node:os'
import { REPOSITORY } from './subprocess.ts'

const git = (...args: string[]): string =>
  execFileSync('git', args, { cwd: REPOSITORY, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()

/** The short commit, marked `+changes` when code the figures depend on differs from it. */
export const currentCommit = (): string => {
  try {
    const commit = git('rev-parse', '--short', 'HEAD')
    const changed = git('status', '--porcelain', '--', 'lambdas', 'scripts', 'bench/scenarios') !== ''
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
