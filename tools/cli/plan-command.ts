/**
 * `spotswap plan [--region R ...] [--profile NAME] [--json]`: the replacer's observe and plan steps
 * against a real account with the user's credentials, DRY_RUN forced and the port made read-only, so
 * an engineer sees exactly what would happen before tagging production groups.
 */

import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import { isManaged } from '../../lambdas/core/config/managed.ts'
import type { Log } from '../../lambdas/core/log.ts'
import type { CloudPort, RegionDirectory } from '../../lambdas/core/port.ts'
import { selectRegions } from '../../lambdas/replacer/select-regions.ts'
import { describeOptions, type OptionSpec, parseOptions } from '../shared/args.ts'
import type { CliIo, Command } from '../shared/io.ts'
import { emptyMarket } from './plan-market.ts'
import { type PlanRegion, type PlanReport, planRegion, planText } from './plan-report.ts'
import { type PreflightRegion, preflight } from './preflight.ts'
import type { PreflightClients } from './preflight-reads.ts'
import { dryRunConfig, runReadOnly } from './read-only.ts'

type ApiCallListener = (name: string) => void

/** Where plan reads the account: the real AWS adapter by default, the simulator's clients in tests. */
export interface PlanDeps {
  regionDirectory(onApiCall: ApiCallListener): Promise<RegionDirectory>
  cloud(region: string, onApiCall: ApiCallListener, log: Log): Promise<CloudPort>
  /** The clients of the pre-flight check's reads, by region. */
  preflightClients(): Promise<(region: string) => PreflightClients>
}

// Loaded when called, not at the top: `simulate` must not pay for the AWS SDK, and tests load it per account.
const awsDeps: PlanDeps = {
  regionDirectory: async (onApiCall) =>
    (await import('../../lambdas/aws/cloud.ts')).createRegionDirectory({ onApiCall }),
  cloud: async (region, onApiCall, log) =>
    (await import('../../lambdas/aws/cloud.ts')).createAwsCloud(region, { onApiCall, logger: log }),
  preflightClients: async () => {
    const { preflightClients } = await import('./preflight-clients.ts')
    const byRegion = new Map<string, PreflightClients>()
    return (region) => {
      let clients = byRegion.get(region)
      if (clients === undefined) {
        clients = preflightClients(region)
        byRegion.set(region, clients)
      }
      return clients
    }
  },
}

const OPTIONS: readonly OptionSpec[] = [
  {
    name: 'region',
    kind: 'list',
    placeholder: 'REGION',
    description:
      'region(s) to plan, repeated or comma-separated (default: REGIONS, else every enabled region)',
  },
  {
    name: 'profile',
    kind: 'value',
    placeholder: 'NAME',
    description: 'the AWS profile to use (default: the SDK default chain)',
  },
  {
    name: 'replacer-role',
    kind: 'value',
    placeholder: 'ARN',
    description:
      'the deployed replacer role, for the iam:PassRole check (default: found in the SpotSwap stack of AWS_REGION)',
  },
  { name: 'json', kind: 'flag', description: 'print the plan as JSON' },
  { name: 'help', kind: 'flag', description: 'show this help' },
]

const USAGE = `Usage: spotswap plan [options]

A read-only dry run against your AWS account: what the replacer would do now to each group, the projected
savings, and why groups and instances are left alone. Settings come from the same environment variables
as the Lambdas (TAG_FILTERS, MIN_ON_DEMAND_NUMBER, ...); DRY_RUN is always on.

${describeOptions(OPTIONS)}`

const notManagedReason = (config: GlobalConfig): string =>
  config.tagFilteringMode === 'opt-in'
    ? `not-managed: opt-in needs ${config.tagFilters.map((f) => `${f.key}=${f.value}`).join(', ')}`
    : `opted-out: ${config.tagFilters.map((f) => `${f.key}=false`).join(' or ')}`

interface RegionPlanned {
  readonly planned: PlanRegion
  /** Undefined when the region could not be planned: nothing to check there. */
  readonly preflight: PreflightRegion | undefined
}

const planOneRegion = async (port: CloudPort, config: GlobalConfig, log: Log): Promise<RegionPlanned> => {
  const market = emptyMarket()
  try {
    const { cloud, result } = await runReadOnly(port, config, { now: new Date(), log, market })
    const everyGroup = await cloud.describeGroups({ tagKey: undefined, tagValues: [] })
    const reason = notManagedReason(config)
    const notManaged = everyGroup
      .filter((g) => !isManaged(g.tags, config))
      .map((g) => ({ name: g.name, reason }))
    const planned = planRegion(result, notManaged, market)
    const launchSources = everyGroup
      .filter((g) => isManaged(g.tags, config))
      .map((g) => ({
        group: g.name,
        launchTemplate: g.launchTemplate ?? g.mixedInstancesPolicy?.launchTemplate,
        launchConfigurationName: g.launchConfigurationName,
      }))
    return {
      planned,
      preflight: { region: cloud.region, groups: planned.groups, market, launchSources },
    }
  } catch (error) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    return { planned: { region: port.region, error: detail, groups: [], strays: [] }, preflight: undefined }
  }
}

/** Where the SpotSwap stack is looked for: the profile's region, as `cdk deploy` would use. */
const homeRegion = (env: Readonly<Record<string, string | undefined>>): string =>
  env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1'

const run = async (deps: PlanDeps, argv: readonly string[], io: CliIo): Promise<number> => {
  const options = parseOptions(argv, OPTIONS)
  if (options.flags.has('help')) {
    io.out(`${USAGE}\n`)
    return 0
  }
  const profile = options.values.get('profile')
  // The SDK reads the profile when it first resolves credentials, which happens after this.
  if (profile !== undefined) process.env.AWS_PROFILE = profile
  const regionsWanted = options.lists.get('region') ?? []
  const parsed = dryRunConfig('plan', io, regionsWanted)
  if (parsed === undefined) return 2
  const { config, errors } = parsed
  const apiCalls = new Map<string, number>()
  const onApiCall = (name: string) => apiCalls.set(name, (apiCalls.get(name) ?? 0) + 1)
  const warnings: string[] = []
  const log: Log = {
    debug: () => {},
    info: () => {},
    warn: (message, attributes) => warnings.push(`${message} ${JSON.stringify(attributes ?? {})}`),
    error: (message, attributes) => warnings.push(`${message} ${JSON.stringify(attributes ?? {})}`),
  }
  const { regions } = await selectRegions(config.regions, await deps.regionDirectory(onApiCall))
  const results = await Promise.all(
    regions.map(async (region) => planOneRegion(await deps.cloud(region, onApiCall, log), config, log)),
  )
  const planned = results.map((r) => r.planned)
  const checks = await preflight(
    {
      regions: results.flatMap((r) => (r.preflight ? [r.preflight] : [])),
      namedRegions: config.regions.filter((r) => !/[*?]/.test(r)),
      homeRegion: homeRegion(io.env),
      replacerRoleArn: options.values.get('replacer-role'),
    },
    await deps.preflightClients(),
  )
  const report: PlanReport = {
    dryRun: true,
    regions: planned,
    preflight: checks,
    configErrors: errors,
    apiCalls: Object.fromEntries([...apiCalls].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  }
  io.out(options.flags.has('json') ? `${JSON.stringify(report, null, 2)}\n` : planText(report))
  for (const warning of warnings) io.err(`warning: ${warning}\n`)
  return planned.length > 0 && planned.every((r) => r.error !== undefined) ? 1 : 0
}

export const createPlanCommand = (deps: PlanDeps): Command => ({
  usage: USAGE,
  run: (argv, io) => run(deps, argv, io),
})

export const planCommand: Command = createPlanCommand(awsDeps)
