/**
 * Configuration: global defaults from environment variables, per-group overrides from
 * `autospotting_<name>` tags. One table drives both, so a setting cannot exist in one and not the other.
 * Parsing never throws: a bad value is reported as a ConfigError and replaced by the default for that key.
 */

import {
  DEFAULT_CHEAPER_POOL_MIN_SAVING_PERCENTAGE,
  DEFAULT_MAX_REPLACEMENTS_IN_FLIGHT,
  DEFAULT_SCHEDULE_MINUTES,
  DEFAULT_TAG_FILTERS,
  GROUP_TAG_PREFIX,
  MAX_GRACE_PERIOD_SECONDS,
  MAX_MIN_ON_DEMAND_NUMBER,
  MAX_ON_DEMAND_PRICE_MULTIPLIER,
} from '../constants.ts'
import type { CronSchedule } from './cron.ts'
import {
  bad,
  type InFlightLimit,
  type Parsed,
  parseBoolean,
  parseCron,
  parseDecimal,
  parseEnum,
  parseInFlight,
  parseInteger,
  parseRegions,
  parseTagFilters,
  parseTimezone,
  parseTypeGlobs,
  type TagFilter,
} from './values.ts'

// The value types the parsers produce live with them (config-values.ts), which imports nothing from here.
export type { InFlightLimit, TagFilter }

export { parseTagFilters }

export const ALLOCATION_STRATEGIES = [
  'price-capacity-optimized',
  'capacity-optimized-prioritized',
  'lowest-price',
] as const
export type AllocationStrategy = (typeof ALLOCATION_STRATEGIES)[number]
export const BIASES = ['lowest_price', 'prefer_newer_generations'] as const
export type PriorityBias = (typeof BIASES)[number]
export const TERMINATION_ACTIONS = ['auto', 'replace', 'detach', 'terminate'] as const
export type TerminationAction = (typeof TERMINATION_ACTIONS)[number]
export const REBALANCE_ACTIONS = ['replace', 'detach', 'ignore'] as const
export type RebalanceAction = (typeof REBALANCE_ACTIONS)[number]
export const TAG_FILTERING_MODES = ['opt-in', 'opt-out'] as const
export type TagFilteringMode = (typeof TAG_FILTERING_MODES)[number]

export interface GroupConfig {
  readonly minOnDemandNumber: number
  readonly minOnDemandPercentage: number
  /** Globs; empty means every type. `current` stands for the replaced instance's own type. */
  readonly allowedInstanceTypes: readonly string[]
  readonly disallowedInstanceTypes: readonly string[]
  readonly spotAllocationStrategy: AllocationStrategy
  readonly prioritizedInstanceTypesBias: PriorityBias
  readonly cronSchedule: CronSchedule
  readonly cronTimezone: string
  readonly cronScheduleState: 'on' | 'off'
  /** Seconds; undefined means the group's HealthCheckGracePeriod. */
  readonly gracePeriodSeconds: number | undefined
  readonly maxReplacementsInFlight: InFlightLimit
  readonly onDemandPriceMultiplier: number
  readonly terminationNotificationAction: TerminationAction
  readonly rebalanceAction: RebalanceAction
  /** Move a spot member to a pool at least this many percent cheaper than its own; 0 = never. */
  readonly cheaperPoolMinSavingPercentage: number
  /**
   * Swap groups that have EC2_INSTANCE_LAUNCHING lifecycle hooks anyway: an attached replacement skips
   * them (its bootstrap or deployment gate never runs). Off by default: such groups are skipped.
   */
  readonly ignoreLaunchHooks: boolean
}

export interface GlobalConfig {
  /** Region globs; empty means every enabled region. */
  readonly regions: readonly string[]
  readonly tagFilters: readonly TagFilter[]
  readonly tagFilteringMode: TagFilteringMode
  readonly dryRun: boolean
  readonly fanoutQueueUrl: string | undefined
  readonly scheduleMinutes: number
  readonly defaults: GroupConfig
}

export interface ConfigError {
  readonly source: 'env' | 'tag'
  /** The environment variable or tag name. */
  readonly name: string
  readonly value: string
  readonly expected: string
  readonly group: string | undefined
  /** What was used instead; `none: no action` for fatal errors. */
  readonly fallback: string
  /** Fatal errors stop the run: they decide which groups are touched at all. */
  readonly fatal: boolean
}

interface Setting<K extends keyof GroupConfig> {
  readonly key: K
  readonly env: string
  readonly defaultRaw: string | undefined
  readonly parse: (raw: string) => Parsed<GroupConfig[K]>
}

const setting = <K extends keyof GroupConfig>(s: Setting<K>): Setting<K> => s

/** Every per-group setting: its environment variable, tag (`autospotting_` + lower-case env), default and parser. */
export const GROUP_SETTINGS = [
  setting({
    key: 'minOnDemandNumber',
    env: 'MIN_ON_DEMAND_NUMBER',
    defaultRaw: '0',
    parse: parseInteger(0, MAX_MIN_ON_DEMAND_NUMBER),
  }),
  setting({
    key: 'minOnDemandPercentage',
    env: 'MIN_ON_DEMAND_PERCENTAGE',
    defaultRaw: '0',
    parse: parseDecimal(0, 100),
  }),
  setting({
    key: 'allowedInstanceTypes',
    env: 'ALLOWED_INSTANCE_TYPES',
    defaultRaw: '',
    parse: parseTypeGlobs,
  }),
  setting({
    key: 'disallowedInstanceTypes',
    env: 'DISALLOWED_INSTANCE_TYPES',
    defaultRaw: '',
    parse: parseTypeGlobs,
  }),
  setting({
    key: 'spotAllocationStrategy',
    env: 'SPOT_ALLOCATION_STRATEGY',
    defaultRaw: 'price-capacity-optimized',
    parse: parseEnum(ALLOCATION_STRATEGIES),
  }),
  setting({
    key: 'prioritizedInstanceTypesBias',
    env: 'PRIORITIZED_INSTANCE_TYPES_BIAS',
    defaultRaw: 'lowest_price',
    parse: parseEnum(BIASES),
  }),
  setting({ key: 'cronSchedule', env: 'CRON_SCHEDULE', defaultRaw: '* *', parse: parseCron }),
  setting({ key: 'cronTimezone', env: 'CRON_TIMEZONE', defaultRaw: 'UTC', parse: parseTimezone }),
  setting({
    key: 'cronScheduleState',
    env: 'CRON_SCHEDULE_STATE',
    defaultRaw: 'on',
    parse: parseEnum(['on', 'off'] as const),
  }),
  setting({
    key: 'gracePeriodSeconds',
    env: 'GRACE_PERIOD',
    defaultRaw: undefined,
    parse: parseInteger(0, MAX_GRACE_PERIOD_SECONDS),
  }),
  setting({
    key: 'maxReplacementsInFlight',
    env: 'MAX_REPLACEMENTS_IN_FLIGHT',
    defaultRaw: DEFAULT_MAX_REPLACEMENTS_IN_FLIGHT,
    parse: parseInFlight,
  }),
  setting({
    key: 'onDemandPriceMultiplier',
    env: 'ON_DEMAND_PRICE_MULTIPLIER',
    defaultRaw: '1.0',
    parse: parseDecimal(0, MAX_ON_DEMAND_PRICE_MULTIPLIER, true),
  }),
  setting({
    key: 'terminationNotificationAction',
    env: 'TERMINATION_NOTIFICATION_ACTION',
    defaultRaw: 'auto',
    parse: parseEnum(TERMINATION_ACTIONS),
  }),
  setting({
    key: 'rebalanceAction',
    env: 'REBALANCE_ACTION',
    defaultRaw: 'replace',
    parse: parseEnum(REBALANCE_ACTIONS),
  }),
  setting({
    key: 'ignoreLaunchHooks',
    env: 'IGNORE_LAUNCH_HOOKS',
    defaultRaw: 'false',
    parse: parseBoolean,
  }),
  setting({
    key: 'cheaperPoolMinSavingPercentage',
    env: 'CHEAPER_POOL_MIN_SAVING_PERCENTAGE',
    defaultRaw: DEFAULT_CHEAPER_POOL_MIN_SAVING_PERCENTAGE,
    parse: parseDecimal(0, 100),
  }),
] as const

export const groupTagName = (envName: string): string => `${GROUP_TAG_PREFIX}${envName.toLowerCase()}`

const builtInDefaults = (): GroupConfig => {
  const entries = GROUP_SETTINGS.map((s) => {
    if (s.defaultRaw === undefined) return [s.key, undefined]
    const parsed = (s.parse as (raw: string) => Parsed<unknown>)(s.defaultRaw)
    if (!parsed.ok) throw new Error(`built-in default for ${s.env} is invalid: ${s.defaultRaw}`)
    return [s.key, parsed.value]
  })
  return Object.fromEntries(entries) as unknown as GroupConfig
}

export const BUILT_IN_DEFAULTS: GroupConfig = builtInDefaults()

const describeValue = (value: unknown): string => {
  if (value === undefined) return 'unset'
  if (Array.isArray(value)) return value.length === 0 ? '(empty)' : value.join(',')
  if (typeof value === 'object' && value !== null && 'raw' in value)
    return String((value as { raw: string }).raw)
  if (typeof value === 'object' && value !== null && 'kind' in value) {
    const limit = value as InFlightLimit
    return limit.kind === 'percent' ? `${limit.value}%` : String(limit.value)
  }
  return String(value)
}

const BLANK_TAG_EXPECTED = 'a non-empty value (remove the tag to use the global default)'

/** Applies overrides from `lookup` (env or tags) on top of `base`, collecting errors per key. */
const overlay = (
  base: GroupConfig,
  lookup: (envName: string) => { name: string; raw: string } | undefined,
  source: 'env' | 'tag',
  group: string | undefined,
): { config: GroupConfig; errors: ConfigError[] } => {
  const config: Record<string, unknown> = { ...base }
  const errors: ConfigError[] = []
  for (const s of GROUP_SETTINGS) {
    const found = lookup(s.env)
    if (found === undefined) continue
    const blank = found.raw.trim() === ''
    // An empty environment variable means "not set" (CloudFormation cannot omit a variable easily).
    if (source === 'env' && blank) continue
    const read = (s.parse as (raw: string) => Parsed<unknown>)(found.raw)
    // An empty tag is a mistake, not a setting: for the type lists it would silently widen the global
    // allow list to every type (or drop the deny list), so it is refused like any other bad value.
    const parsed = blank && read.ok ? bad<unknown>(BLANK_TAG_EXPECTED) : read
    if (parsed.ok) {
      config[s.key] = parsed.value
    } else {
      errors.push({
        source,
        name: found.name,
        value: found.raw,
        expected: parsed.expected,
        group,
        fallback: describeValue(base[s.key]),
        fatal: false,
      })
    }
  }
  return { config: config as unknown as GroupConfig, errors }
}

/** A group's effective configuration: the global defaults overridden by its `autospotting_*` tags. */
/**
 * AutoSpotting settings spotswap does not have (bidding is gone from EC2; the rest are out of scope).
 * A group migrating with one of these gets a clear note instead of silence.
 */
const AUTOSPOTTING_ONLY_TAGS = new Set(
  [
    'bidding_policy',
    'spot_price_buffer_percentage',
    'spot_product_description',
    'spot_product_premium',
    'patch_beanstalk_userdata',
    'gp2_conversion_threshold',
    'instance_termination_method',
  ].map((name) => `${GROUP_TAG_PREFIX}${name}`),
)

const KNOWN_GROUP_TAGS = new Set(GROUP_SETTINGS.map((s) => groupTagName(s.env)))

/** `autospotting_*` tags that set nothing: a typo (`..._numbr`) would otherwise silently change nothing. */
const unknownSettingTags = (groupName: string, tags: Readonly<Record<string, string>>): ConfigError[] =>
  Object.entries(tags)
    .filter(([name]) => name.startsWith(GROUP_TAG_PREFIX) && !KNOWN_GROUP_TAGS.has(name))
    .map(([name, value]) => ({
      source: 'tag',
      name,
      value,
      expected: AUTOSPOTTING_ONLY_TAGS.has(name)
        ? 'nothing: this AutoSpotting setting has no spotswap equivalent'
        : `one of the spotswap settings (${[...KNOWN_GROUP_TAGS].join(', ')})`,
      group: groupName,
      fallback: 'ignored',
      fatal: false,
    }))

const TAG_NAME_OF_ENV: ReadonlyMap<string, string> = new Map(
  GROUP_SETTINGS.map((s) => [s.env, groupTagName(s.env)]),
)

const hasSettingTags = (tags: Readonly<Record<string, string>>): boolean => {
  for (const name in tags) if (name.startsWith(GROUP_TAG_PREFIX)) return true
  return false
}

export const groupConfig = (
  defaults: GroupConfig,
  groupName: string,
  tags: Readonly<Record<string, string>>,
): { config: GroupConfig; errors: ConfigError[] } => {
  // Most groups carry no setting tag: they run on the defaults as they are (thousands of groups a run).
  if (!hasSettingTags(tags)) return { config: defaults, errors: [] }
  const { config, errors } = overlay(
    defaults,
    (envName) => {
      const name = TAG_NAME_OF_ENV.get(envName) ?? groupTagName(envName)
      const raw = tags[name]
      return raw === undefined ? undefined : { name, raw }
    },
    'tag',
    groupName,
  )
  return { config, errors: [...errors, ...unknownSettingTags(groupName, tags)] }
}

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
    defaults,
  }
  return { config, errors: [...errors, ...defaultErrors] }
}
