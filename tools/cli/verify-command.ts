/**
 * `spotswap verify --region R [--with-load-balancer] [--subnet ID] [--cleanup] [--run-id ID]`: an
 * acceptance run in the user's own (sandbox) account. It creates a tiny group of its own, drives the
 * replacer and the interruption handler on it in this process with the user's credentials, checks
 * spotswap's promises on what the account shows, prints an estimate of what it cost, and deletes
 * everything it created. `--cleanup` deletes what an interrupted run left, by its run tag.
 */
import { randomBytes } from 'node:crypto'
import { describeOptions, integerOption, type OptionSpec, parseOptions, UsageError } from '../shared/args.ts'
import type { CliIo, Command } from '../shared/io.ts'
import { cleanUp, leftoverCount, leftoverText } from './verify-cleanup.ts'
import { RUN_ID_PATTERN } from './verify-resources.ts'
import { type VerifyDeps, type VerifyOptions, verifyRun } from './verify-run.ts'

export type { VerifyDeps } from './verify-run.ts'

const awsDeps: VerifyDeps = {
  clients: async (region) => (await import('./verify-clients.ts')).verifyClients(region),
  cloud: async (region, log, markerKeyArn) =>
    (await import('../../lambdas/aws/cloud.ts')).createAwsCloud(region, { logger: log, markerKeyArn }),
  preflightClients: async (region) => (await import('./preflight-clients.ts')).preflightClients(region),
  now: () => new Date(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

const OPTIONS: readonly OptionSpec[] = [
  { name: 'region', kind: 'value', placeholder: 'REGION', description: 'the region to verify in (required)' },
  {
    name: 'subnet',
    kind: 'list',
    placeholder: 'ID',
    description: "subnet(s) for the group (default: the default VPC's default subnets)",
  },
  {
    name: 'with-load-balancer',
    kind: 'flag',
    description: 'put the group behind an internal Application Load Balancer (costs more; two zones needed)',
  },
  {
    name: 'cleanup',
    kind: 'flag',
    description: 'delete what an interrupted run left, by its run tag, and stop',
  },
  {
    name: 'run-id',
    kind: 'value',
    placeholder: 'ID',
    description: 'the run to clean up (default with --cleanup: every verify run), or the id of a new run',
  },
  {
    name: 'deadline-minutes',
    kind: 'value',
    placeholder: 'N',
    description: 'fail if the group has not converged within N minutes (default 30)',
  },
  {
    name: 'wait-seconds',
    kind: 'value',
    placeholder: 'N',
    description: 'seconds between two runs of the handlers (default 30)',
  },
  { name: 'profile', kind: 'value', placeholder: 'NAME', description: 'the AWS profile to use' },
  { name: 'help', kind: 'flag', description: 'show this help' },
]

const USAGE = `Usage: spotswap verify --region REGION [options]

An acceptance run in your own account (a sandbox account first): creates a group of two on-demand
instances of the cheapest compatible type, tagged spotswap:verify-run=<run id> and spot-enabled=true;
runs spotswap's replacer and interruption handler on it from this machine with your credentials; checks
that it converges to spot, serves throughout, retires members through Auto Scaling, leaves no launch
behind and that the deployed roles are refused what they must be; prints what it cost (an estimate);
and deletes everything it created. It runs for a few minutes and costs a few cents.

${describeOptions(OPTIONS)}`

/** Minutes the final cleanup may take: a group's ForceDelete and a load balancer's deletion are slow. */
const CLEANUP_MINUTES = 10

const newRunId = (now: Date): string =>
  `${now.getTime().toString(36).slice(-6)}${randomBytes(3).toString('hex')}`.slice(0, 12)

const runIdOption = (value: string | undefined): string | undefined => {
  if (value !== undefined && !RUN_ID_PATTERN.test(value))
    throw new UsageError(`--run-id must be 1 to 12 lowercase letters or digits, got '${value}'`, '--run-id')
  return value
}

const cleanupOnly = async (deps: VerifyDeps, region: string, runId: string | undefined, io: CliIo) => {
  const clients = await deps.clients(region)
  const deadline = new Date(deps.now().getTime() + CLEANUP_MINUTES * 60_000)
  const result = await cleanUp(clients, runId, deps, deadline)
  const what = runId === undefined ? 'every verify run' : `verify run ${runId}`
  io.out(
    leftoverCount(result.deleted) === 0
      ? `Nothing left by ${what} in ${region}.\n`
      : `Deleted what ${what} left in ${region}: ${leftoverText(result.deleted)}\n`,
  )
  if (leftoverCount(result.remaining) === 0) return 0
  io.err(
    `spotswap verify: still there after ${CLEANUP_MINUTES} minutes: ${leftoverText(result.remaining)}${result.problems.length > 0 ? `\n  ${result.problems.join('\n  ')}` : ''}\n`,
  )
  return 1
}

const run = async (deps: VerifyDeps, argv: readonly string[], io: CliIo): Promise<number> => {
  const options = parseOptions(argv, OPTIONS)
  if (options.flags.has('help')) {
    io.out(`${USAGE}\n`)
    return 0
  }
  const region = options.values.get('region')
  if (region === undefined) throw new UsageError('--region is required', '--region')
  const runId = runIdOption(options.values.get('run-id'))
  const profile = options.values.get('profile')
  // The SDK reads the profile when it first resolves credentials, which happens after this.
  if (profile !== undefined) process.env.AWS_PROFILE = profile
  if (options.flags.has('cleanup')) return cleanupOnly(deps, region, runId, io)
  const verifyOptions: VerifyOptions = {
    region,
    runId: runId ?? newRunId(deps.now()),
    subnets: options.lists.get('subnet') ?? [],
    withLoadBalancer: options.flags.has('with-load-balancer'),
    deadlineMinutes: integerOption(options, 'deadline-minutes', 30, 1),
    waitSeconds: integerOption(options, 'wait-seconds', 30, 1),
    cleanupMinutes: CLEANUP_MINUTES,
    homeRegion: io.env.AWS_REGION || io.env.AWS_DEFAULT_REGION || region,
  }
  return verifyRun(deps, verifyOptions, io)
}

export const createVerifyCommand = (deps: VerifyDeps): Command => ({
  usage: USAGE,
  run: (argv, io) => run(deps, argv, io),
})

export const verifyCommand: Command = createVerifyCommand(awsDeps)
