/** The run's configuration, from the Lambda's environment variables. */
import { DEFAULT_COMMITMENTS, parseCommitments } from '../commitments/setting.ts'
import { DEFAULT_SCHEDULE_MINUTES, DEFAULT_TAG_FILTERS } from '../constants.ts'
import { type ConfigError, type GlobalConfig, TAG_FILTERING_MODES } from './config.ts'
import { describeValue, overlay } from './overlay.ts'
import { BUILT_IN_DEFAULTS, GROUP_SETTINGS } from './settings.ts'
import { closestName } from './suggest.ts'
import {
  type Parsed,
  parseBoolean,
  parseEnum,
  parseInteger,
  parseLogLevel,
  parseRegions,
  parseTagFilters,
} from './values.ts'

/** Every environment variable the Lambdas read, the per-group settings' included. */
export const LAMBDA_VARIABLES: readonly string[] = [
  'REGIONS',
  'TAG_FILTERS',
  'TAG_FILTERING_MODE',
  'DRY_RUN',
  'SCHEDULE_MINUTES',
  'FANOUT_QUEUE_URL',
  'RUN_REQUEST_QUEUE_URL',
  'DEADLINE_QUEUE_URL',
  'LOG_LEVEL',
  'COMMITMENTS',
  ...GROUP_SETTINGS.map((s) => s.env),
]

/**
 * Variables one edit or so away from one the Lambdas read (`MIN_ONDEMAND_NUMBER`): set by someone who meant
 * a setting, and silently ignored otherwise. Reported, never used. The runtime's own (`AWS_*`, `_HANDLER`)
 * are not ours to judge.
 */
const misspeltVariables = (env: Readonly<Record<string, string | undefined>>): ConfigError[] =>
  Object.entries(env).flatMap(([name, value]) => {
    if (value === undefined || LAMBDA_VARIABLES.includes(name)) return []
    if (!/^[A-Z][A-Z0-9_]*$/.test(name) || name.startsWith('AWS_')) return []
    const closest = closestName(name, LAMBDA_VARIABLES)
    if (closest === undefined) return []
    return [
      {
        source: 'env',
        name,
        value,
        expected: `a spotswap variable: did you mean ${closest}?`,
        group: undefined,
        fallback: 'ignored',
        fatal: false,
      } satisfies ConfigError,
    ]
  })

/**
 * Reads the global configuration from environment variables. Settings that decide *which* groups are
 * touched (REGIONS, TAG_FILTERS, TAG_FILTERING_MODE) are fatal when invalid: guessing there could act on
 * groups the user never enabled, so the run does nothing and says why.
 */
export const parseGlobalConfig = (
  env: Readonly<Record<string, string | undefined>>,
): { config: GlobalConfig; errors: ConfigError[] } => {
  const errors: ConfigError[] = []
  const global = <T>(
    name: string,
    parser: (raw: string) => Parsed<T>,
    fallback: T,
    fatal: boolean,
    onError: T = fallback,
  ): T => {
    const raw = env[name]
    if (raw === undefined || raw.trim() === '') return fallback
    const parsed = parser(raw)
    if (parsed.ok) return parsed.value
    errors.push({
      source: 'env',
      name,
      value: raw,
      expected: parsed.expected,
      group: undefined,
      fallback: fatal ? 'none: no action this run' : describeValue(onError),
      fatal,
    })
    return onError
  }
  const defaultFilters = parseTagFilters(DEFAULT_TAG_FILTERS)
  if (!defaultFilters.ok) throw new Error('DEFAULT_TAG_FILTERS is invalid')
  const { config: defaults, errors: defaultErrors } = overlay(
    BUILT_IN_DEFAULTS,
    (name) => {
      const raw = env[name]
      return raw === undefined ? undefined : { name, raw }
    },
    'env',
    undefined,
  )
  const config: GlobalConfig = {
    regions: global('REGIONS', parseRegions, [], true),
    tagFilters: global('TAG_FILTERS', parseTagFilters, defaultFilters.value, true),
    tagFilteringMode: global('TAG_FILTERING_MODE', parseEnum(TAG_FILTERING_MODES), 'opt-in', true),
    // A DRY_RUN we cannot read was probably meant to be on: observing is the safe side.
    dryRun: global('DRY_RUN', parseBoolean, false, false, true),
    fanoutQueueUrl: env.FANOUT_QUEUE_URL?.trim() || undefined,
    scheduleMinutes: global('SCHEDULE_MINUTES', parseInteger(1, 1440), DEFAULT_SCHEDULE_MINUTES, false),
    // Unreadable, the cheap side: per-group figures stay in the log.
    groupMetrics: global('GROUP_METRICS', parseBoolean, false, false),
    // Unreadable, this account's own reads: what it can see of its commitments.
    commitments: global('COMMITMENTS', parseCommitments, DEFAULT_COMMITMENTS, false),
    defaults,
  }
  // Powertools reads LOG_LEVEL itself; checked here so a bad one is reported like any other value.
  global('LOG_LEVEL', parseLogLevel, 'INFO', false)
  return { config, errors: [...errors, ...defaultErrors, ...misspeltVariables(env)] }
}
