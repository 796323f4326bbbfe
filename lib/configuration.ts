/**
 * The Lambdas' configuration as the CDK app sees it: the AutoSpotting-compatible environment variables a
 * user may set. Validated at synth time with the very parser the Lambdas use, so a typo fails
 * `cdk synth` with the Lambda's own message instead of being logged every five minutes in production.
 */
import type { GlobalConfig } from '../lambdas/core/config/config.ts'
import { parseGlobalConfig } from '../lambdas/core/config/global-config.ts'
import { suggestion } from '../lambdas/core/config/suggest.ts'

/** Set by the construct itself, never by users: they follow from the deployment's shape. */
export const MANAGED_VARIABLES = ['REGIONS', 'SCHEDULE_MINUTES', 'FANOUT_QUEUE_URL'] as const

/**
 * Every variable a user may set. Listed literally (not derived from GROUP_SETTINGS) so embedding apps
 * get a typed key; a test keeps this list equal to what lambdas/core/config/config.ts reads.
 */
export const CONFIGURATION_VARIABLES = [
  'TAG_FILTERS',
  'TAG_FILTERING_MODE',
  'DRY_RUN',
  'MIN_ON_DEMAND_NUMBER',
  'MIN_ON_DEMAND_PERCENTAGE',
  'ALLOWED_INSTANCE_TYPES',
  'DISALLOWED_INSTANCE_TYPES',
  'SPOT_ALLOCATION_STRATEGY',
  'PRIORITIZED_INSTANCE_TYPES_BIAS',
  'CRON_SCHEDULE',
  'CRON_TIMEZONE',
  'CRON_SCHEDULE_STATE',
  'GRACE_PERIOD',
  'MAX_REPLACEMENTS_IN_FLIGHT',
  'ON_DEMAND_PRICE_MULTIPLIER',
  'TERMINATION_NOTIFICATION_ACTION',
  'REBALANCE_ACTION',
  'CHEAPER_POOL_MIN_SAVING_PERCENTAGE',
  'IGNORE_LAUNCH_HOOKS',
  'LOG_LEVEL',
  'ALLOW_XEN_TO_NITRO',
  'ALLOW_GPU_MODEL_CHANGE',
  'ALLOW_CPU_VENDOR_CHANGE',
  'ALLOW_GENERATION_CHANGE',
  'GROUP_METRICS',
  'REPLACE_SCHEDULED',
  'COMMITMENTS',
] as const

export type ConfigurationVariable = (typeof CONFIGURATION_VARIABLES)[number]

/** Values as the Lambdas read them (strings); an absent or empty value means the built-in default. */
export type SpotSwapConfiguration = Readonly<Partial<Record<ConfigurationVariable, string>>>

/** One bad setting: its name (context key or variable), the value given, and what was expected instead. */
export interface SettingProblem {
  readonly setting: string
  readonly value: string
  readonly expected: string
}

export const describeProblem = (p: SettingProblem): string =>
  `${p.setting}=${JSON.stringify(p.value)}: ${p.expected}`

/** Bad settings at synth time: every problem named, for bin/app.ts to print without a stack trace. */
export class InvalidSettingsError extends Error {
  constructor(
    readonly problems: readonly SettingProblem[],
    heading = 'invalid configuration',
  ) {
    super(`${heading}:\n  ${problems.map(describeProblem).join('\n  ')}`)
  }
}

export class InvalidConfigurationError extends InvalidSettingsError {
  override readonly name = 'InvalidConfigurationError'
}

/** A name that is not a setting: the closest one, or the list when none is close. */
export const unknownSetting = (name: string, value: unknown, known: readonly string[]): SettingProblem => ({
  setting: name,
  value: typeof value === 'string' ? value : JSON.stringify(value ?? ''),
  expected: `not a setting; ${suggestion(name, known)}`,
})

const isConfigurationVariable = (name: string): name is ConfigurationVariable =>
  (CONFIGURATION_VARIABLES as readonly string[]).includes(name)

/** The non-empty values only: an empty string means "default", and the Lambda treats unset the same way. */
export const configurationEnvironment = (configuration: SpotSwapConfiguration): Record<string, string> =>
  Object.fromEntries(
    Object.entries(configuration).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '',
    ),
  )

/**
 * Parses the configuration exactly as the Lambdas will and throws one error naming every bad value.
 * Unlike the Lambdas, which fall back to a default for a non-fatal error, a deployment refuses them all:
 * at deploy time the user is there to fix the value.
 */
export const validateConfiguration = (configuration: SpotSwapConfiguration): GlobalConfig => {
  const unknown = Object.entries(configuration)
    .filter(([name]) => !isConfigurationVariable(name))
    .map(([name, value]) => unknownSetting(name, value, CONFIGURATION_VARIABLES))
  if (unknown.length > 0) throw new InvalidConfigurationError(unknown, 'unknown configuration variable(s)')
  const { config, errors } = parseGlobalConfig(configurationEnvironment(configuration))
  const problems: SettingProblem[] = errors.map((e) => ({
    setting: e.name,
    value: e.value,
    expected: `expected ${e.expected}`,
  }))
  if (problems.length > 0) throw new InvalidConfigurationError(problems)
  const keys = config.tagFilters.map((filter) => filter.key)
  const repeated = keys.filter((key, index) => keys.indexOf(key) !== index)
  if (repeated.length > 0) {
    // matchesAll() would demand both values of one key; an IAM condition block holds one value per key,
    // so the policy could not say the same thing. Refuse rather than grant more than the Lambda manages.
    throw new InvalidConfigurationError([
      {
        setting: 'TAG_FILTERS',
        value: configuration.TAG_FILTERS ?? '',
        expected: `names ${repeated.join(', ')} more than once; use one glob per tag key`,
      },
    ])
  }
  return config
}
