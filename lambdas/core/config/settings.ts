/** The settings table: every per-group setting's environment variable, tag, built-in default and parser. */
import {
  DEFAULT_CHEAPER_POOL_MIN_SAVING_PERCENTAGE,
  DEFAULT_MAX_REPLACEMENTS_IN_FLIGHT,
  GROUP_TAG_PREFIX,
  MAX_GRACE_PERIOD_SECONDS,
  MAX_MIN_ON_DEMAND_NUMBER,
  MAX_ON_DEMAND_PRICE_MULTIPLIER,
} from '../constants.ts'
import {
  ALLOCATION_STRATEGIES,
  BIASES,
  type GroupConfig,
  REBALANCE_ACTIONS,
  TERMINATION_ACTIONS,
} from './config.ts'
import {
  type Parsed,
  parseBoolean,
  parseCron,
  parseDecimal,
  parseEnum,
  parseInFlight,
  parseInteger,
  parseTimezone,
  parseTypeGlobs,
} from './values.ts'

export interface Setting<K extends keyof GroupConfig> {
  readonly key: K
  readonly env: string
  readonly defaultRaw: string | undefined
  readonly parse: (raw: string) => Parsed<GroupConfig[K]>
}

const setting = <K extends keyof GroupConfig>(s: Setting<K>): Setting<K> => s

/** AutoSpotting's name for the price bias (its core/config.go: `lower_cost`) is read as spotswap's `lowest_price`. */
const parseBias = (raw: string) =>
  parseEnum(BIASES)(raw.trim().toLowerCase() === 'lower_cost' ? 'lowest_price' : raw)

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
    parse: parseBias,
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
  setting({ key: 'allowXenToNitro', env: 'ALLOW_XEN_TO_NITRO', defaultRaw: 'false', parse: parseBoolean }),
  setting({
    key: 'allowGpuModelChange',
    env: 'ALLOW_GPU_MODEL_CHANGE',
    defaultRaw: 'false',
    parse: parseBoolean,
  }),
  setting({
    key: 'allowCpuVendorChange',
    env: 'ALLOW_CPU_VENDOR_CHANGE',
    defaultRaw: 'true',
    parse: parseBoolean,
  }),
  setting({
    key: 'allowGenerationChange',
    env: 'ALLOW_GENERATION_CHANGE',
    defaultRaw: 'true',
    parse: parseBoolean,
  }),
  setting({ key: 'replaceScheduled', env: 'REPLACE_SCHEDULED', defaultRaw: 'true', parse: parseBoolean }),
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
