/**
 * `spotswap revert --region R --group NAME [--dry-run]`: asks the deployed replacer to bring a group back
 * to all on-demand, one serve-before-retire step per run (core/revert/). The request is a run request of
 * the group with `revert` (core/events/definitions.ts groupRunRequest), given to the replacer Lambda: it
 * passes it on to its fan-out queue in the group's lane and writes the group's signed `spotswap:revert`
 * marker (only spotswap's roles can compute its MAC, and its queues take messages only from them). The
 * command invokes the replacer with it (revert-deliver.ts: needs lambda:InvokeFunction on the replacer and
 * cloudformation:DescribeStackResources to find it); `--print` prints the `aws lambda invoke` instead.
 * `--dry-run` delivers nothing: it plans the group read-only with the user's credentials, as if the
 * request had arrived.
 */

import { groupRunRequestEvent } from '../../lambdas/core/events/definitions.ts'
import { REGION_NAME } from '../../lambdas/core/events/registry.ts'
import { type Log, silentLog } from '../../lambdas/core/log.ts'
import type { CloudPort } from '../../lambdas/core/port.ts'
import { describeOptions, type OptionSpec, parseOptions, UsageError } from '../shared/args.ts'
import type { CliIo, Command } from '../shared/io.ts'
import { dryRunConfig, runReadOnly } from './read-only.ts'
import type { RevertDelivery } from './revert-deliver.ts'

export interface RevertDeps {
  cloud(region: string, log: Log): Promise<CloudPort>
  now(): Date
  delivery(): Promise<RevertDelivery>
}

// Loaded when called: the other commands must not pay for the AWS SDK.
const awsDeps: RevertDeps = {
  cloud: async (region, log) =>
    (await import('../../lambdas/aws/cloud.ts')).createAwsCloud(region, { logger: log }),
  now: () => new Date(),
  delivery: async () => (await import('./revert-deliver.ts')).lambdaDelivery,
}

const OPTIONS: readonly OptionSpec[] = [
  { name: 'region', kind: 'value', placeholder: 'REGION', description: 'the group’s region' },
  { name: 'group', kind: 'value', placeholder: 'NAME', description: 'the Auto Scaling group to revert' },
  {
    name: 'function',
    kind: 'value',
    placeholder: 'NAME',
    description: 'the deployed replacer function (default: the replacer of the SpotSwap stack)',
  },
  {
    name: 'home-region',
    kind: 'value',
    placeholder: 'REGION',
    description: 'where the SpotSwap stack is deployed (default: AWS_REGION, else --region)',
  },
  { name: 'print', kind: 'flag', description: 'print the aws lambda invoke that delivers it, instead' },
  { name: 'dry-run', kind: 'flag', description: 'deliver nothing: show what the revert would do now' },
  { name: 'profile', kind: 'value', placeholder: 'NAME', description: 'the AWS profile to use' },
  { name: 'help', kind: 'flag', description: 'show this help' },
]

const USAGE = `Usage: spotswap revert --region REGION --group NAME [options]

Brings a group back to all on-demand, one step per replacer run: desired capacity + 1 through Auto
Scaling (an on-demand launch from the group's own template), then a spot member leaves with a decrement
once the new member serves. When no spot member is left the group is tagged spotswap:revert done and
spotswap leaves it alone; remove that tag to hand it back. The request is delivered by invoking the
deployed replacer (lambda:InvokeFunction; cloudformation:DescribeStackResources to find it).

${describeOptions(OPTIONS)}`

const required = (value: string | undefined, option: string): string => {
  if (value === undefined || value.trim() === '') throw new UsageError(`--${option} is required`, option)
  return value.trim()
}

/** The group planned read-only, as if the request had arrived: its skip reason and actions. */
const dryRun = async (deps: RevertDeps, io: CliIo, region: string, group: string): Promise<number> => {
  const parsed = dryRunConfig('revert', io, [region])
  if (parsed === undefined) return 2
  const { result } = await runReadOnly(await deps.cloud(region, silentLog), parsed.config, {
    now: deps.now(),
    log: silentLog,
    onlyGroups: [group],
    revert: [group],
  })
  const plan = result.groups.find((g) => g.plan.group === group)?.plan
  if (plan === undefined) {
    io.err(`spotswap revert: ${group} is not a group spotswap manages in ${region}: nothing to revert\n`)
    return 1
  }
  const steps = plan.actions.map((a) => `  would ${a.kind}: ${'reason' in a ? a.reason : ''}\n`)
  io.out(
    `${group} (${region}): ${plan.skipped ?? 'not reverting'}\n${steps.join('') || '  nothing to do this run\n'}`,
  )
  return 0
}

const NEXT_STEPS =
  "Each replacer run then takes one step; 'spotswap revert --dry-run' and 'spotswap plan' show where it stands."

const printedInvoke = (group: string, region: string, fn: string, payload: string): string =>
  [
    `Deliver the revert of ${group} (${region}) to the replacer (needs lambda:InvokeFunction on it):`,
    '',
    `  aws lambda invoke --function-name ${fn} --invocation-type Event --cli-binary-format raw-in-base64-out --payload '${payload}' /dev/null`,
    '',
    NEXT_STEPS,
    '',
  ].join('\n')

const run = async (deps: RevertDeps, argv: readonly string[], io: CliIo): Promise<number> => {
  const options = parseOptions(argv, OPTIONS)
  if (options.flags.has('help')) {
    io.out(`${USAGE}\n`)
    return 0
  }
  const profile = options.values.get('profile')
  if (profile !== undefined) process.env.AWS_PROFILE = profile
  const region = required(options.values.get('region'), 'region')
  if (!REGION_NAME.test(region))
    throw new UsageError(`--region ${JSON.stringify(region)} is not a region name`)
  const group = required(options.values.get('group'), 'group')
  if (group.length > 255) throw new UsageError('--group is longer than a group name can be')
  if (options.flags.has('dry-run')) return dryRun(deps, io, region, group)
  const now = deps.now()
  const payload = JSON.stringify(groupRunRequestEvent(`revert-${now.getTime()}`, region, group, now, true))
  const named = options.values.get('function')
  if (options.flags.has('print')) {
    io.out(printedInvoke(group, region, named ?? 'REPLACER_FUNCTION', payload))
    return 0
  }
  const homeRegion =
    options.values.get('home-region') ?? (io.env.AWS_REGION || io.env.AWS_DEFAULT_REGION || region)
  if (!REGION_NAME.test(homeRegion))
    throw new UsageError(`--home-region ${JSON.stringify(homeRegion)} is not a region name`)
  const delivery = await deps.delivery()
  try {
    const fn = named ?? (await delivery.replacerFunction(homeRegion))
    await delivery.invoke(homeRegion, fn, payload)
    io.out(`Asked ${fn} (${homeRegion}) to revert ${group} (${region}). ${NEXT_STEPS}\n`)
  } catch (error) {
    io.err(
      `spotswap revert: the request for ${group} was not delivered, nothing changed: ${error instanceof Error ? error.message : String(error)}\n`,
    )
    return 1
  }
  return 0
}

export const createRevertCommand = (deps: RevertDeps): Command => ({
  usage: USAGE,
  run: (argv, io) => run(deps, argv, io),
})

export const revertCommand: Command = createRevertCommand(awsDeps)
