/**
 * Values for spotswap's settings, as `autospotting_*` group tags and as environment variables: valid
 * ones, and hostile ones of every kind a user or a script produces (out of range, NaN, blank, huge,
 * unicode look-alikes, globs matching nothing or everything, broken cron, unknown names). The engine must
 * fall back to its defaults for the bad ones and never do anything unsafe.
 */
import fc from 'fast-check'

/** AWS caps tag values at 256 characters. */
const HUGE = 'x'.repeat(256)

const INVALID_NUMBERS = [
  '-1',
  '1.5',
  'NaN',
  'Infinity',
  '',
  ' ',
  '1e2',
  '٣',
  'two',
  '0x10',
  '99999999999999999999',
  HUGE,
]
const INVALID_TYPE_LISTS = [
  ',',
  ', ,',
  '[m5]',
  'm5.large;reboot',
  'm5.*{a,b}',
  '',
  'ｍ５．ｌａｒｇｅ',
  '🚀',
  HUGE,
]
const INVALID_WORDS = ['', ' ', 'cheapest', 'stop', 'maybe', 'TRUE!', 'nul\u0000l', '🚀', HUGE]

/** Per setting (environment variable name): values it accepts and values it must refuse. */
export const SETTING_VALUES: Readonly<
  Record<string, { valid: readonly string[]; invalid: readonly string[] }>
> = {
  MIN_ON_DEMAND_NUMBER: {
    valid: ['0', '1', '2', '3', ' 1 ', '10000'],
    invalid: [...INVALID_NUMBERS, '10001'],
  },
  MIN_ON_DEMAND_PERCENTAGE: {
    valid: ['0', '25', '33.3', '50', '100'],
    invalid: ['101', '50%', '-5', '.', ...INVALID_NUMBERS],
  },
  ALLOWED_INSTANCE_TYPES: {
    valid: ['current', 'm5.*', 'c5.*,m5.*', '*', 'matches-nothing-*', 'm5.large c5.large r5.large', 't3.*'],
    invalid: INVALID_TYPE_LISTS,
  },
  DISALLOWED_INSTANCE_TYPES: {
    valid: ['r5b.*', '*', 'current', 't*', 'matches-nothing-*', 'm5d.large,m5n.large'],
    invalid: INVALID_TYPE_LISTS,
  },
  SPOT_ALLOCATION_STRATEGY: {
    valid: ['price-capacity-optimized', 'capacity-optimized-prioritized', 'lowest-price', 'LOWEST-PRICE'],
    invalid: ['capacity-optimized', 'diversified', ...INVALID_WORDS],
  },
  PRIORITIZED_INSTANCE_TYPES_BIAS: {
    valid: ['lowest_price', 'prefer_newer_generations'],
    invalid: ['newest', ...INVALID_WORDS],
  },
  CRON_SCHEDULE: {
    valid: ['* *', '9-18 1-5', '0-23 0-6', '18-23 *', '20,21 2', '0 0'],
    invalid: ['25 *', '* 8', 'a b', '* * *', '9-18', '18-9 *', '*/5 *', ...INVALID_WORDS],
  },
  CRON_TIMEZONE: {
    valid: ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata'],
    invalid: ['Mars/Olympus', 'UTC+25', ...INVALID_WORDS],
  },
  CRON_SCHEDULE_STATE: { valid: ['on', 'off'], invalid: ['maybe', 'yes', ...INVALID_WORDS] },
  GRACE_PERIOD: { valid: ['0', '30', '300', '900'], invalid: ['-30', '86401', '5m', ...INVALID_NUMBERS] },
  MAX_REPLACEMENTS_IN_FLIGHT: {
    valid: ['auto', 'Auto', '1', '2', '25%', '50%', '100%', '33.3%'],
    invalid: ['0', '0%', '101%', 'all', '-1', ...INVALID_NUMBERS],
  },
  ON_DEMAND_PRICE_MULTIPLIER: {
    valid: ['1.0', '0.5', '2', '0.1', '10'],
    invalid: ['0', '11', '-1', ...INVALID_NUMBERS],
  },
  TERMINATION_NOTIFICATION_ACTION: {
    valid: ['auto', 'replace', 'detach', 'terminate'],
    invalid: ['hibernate', ...INVALID_WORDS],
  },
  REBALANCE_ACTION: {
    valid: ['replace', 'detach', 'ignore', 'Detach'],
    invalid: ['terminate', ...INVALID_WORDS],
  },
  CHEAPER_POOL_MIN_SAVING_PERCENTAGE: {
    valid: ['0', '5', '10', '50', '100'],
    invalid: ['-1', '101', '10%', ...INVALID_NUMBERS],
  },
}

export const SETTING_NAMES = Object.keys(SETTING_VALUES)

/** Tags that set nothing: typos and AutoSpotting-only settings. */
export const UNKNOWN_SETTING_TAGS = [
  'autospotting_min_on_demand_numbr',
  'autospotting_bidding_policy',
  'autospotting_',
]

/** A value for `setting`: valid most of the time, hostile otherwise. */
export const settingValue = (setting: string, invalidWeight: number): fc.Arbitrary<string> => {
  const values = SETTING_VALUES[setting] ?? { valid: [''], invalid: [''] }
  return fc.oneof(
    { weight: 100 - invalidWeight, arbitrary: fc.constantFrom(...values.valid) },
    { weight: invalidWeight, arbitrary: fc.constantFrom(...values.invalid) },
  )
}

/** `autospotting_<setting>` tags of one group (a few settings at most, now and then an unknown one). */
export const settingTags = (): fc.Arbitrary<Record<string, string>> =>
  fc
    .tuple(
      fc
        .uniqueArray(fc.constantFrom(...SETTING_NAMES), { maxLength: 4 })
        .chain((names) =>
          fc.tuple(...names.map((name) => settingValue(name, 40).map((value) => [name, value] as const))),
        ),
      fc.option(fc.tuple(fc.constantFrom(...UNKNOWN_SETTING_TAGS), fc.constantFrom('1', 'true', '')), {
        freq: 8,
      }),
    )
    .map(([settings, unknown]) => {
      const tags: Record<string, string> = {}
      for (const [name, value] of settings) tags[`autospotting_${name.toLowerCase()}`] = value
      if (unknown !== null) tags[unknown[0]] = unknown[1]
      return tags
    })
