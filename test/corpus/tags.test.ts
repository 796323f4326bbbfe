/**
 * The tag corpus through groupConfig: every hostile value gives the documented ConfigError (naming the
 * group, tag, value and what was expected) and the global default for that key only; every accepted
 * value resolves to what the corpus says. Checked against two different sets of global defaults, so
 * "the default" cannot be a hard-coded built-in value.
 */
import { describe, expect, it } from 'vitest'
import type { GroupConfig } from '../../lambdas/core/config/config.ts'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { groupConfig } from '../../lambdas/core/config/group-config.ts'
import { BUILT_IN_DEFAULTS, GROUP_SETTINGS, groupTagName } from '../../lambdas/core/config/settings.ts'
import { loadTagCorpus, type TagEntry, tagLabel } from './support/tag-corpus.ts'

const GROUP = 'web'

/** Global defaults unlike the built-in ones, with the fallback text each ConfigError must then carry. */
const CUSTOM_ENV = {
  MIN_ON_DEMAND_NUMBER: '1',
  MIN_ON_DEMAND_PERCENTAGE: '10',
  ALLOWED_INSTANCE_TYPES: 'm5.*,c5.*',
  DISALLOWED_INSTANCE_TYPES: 't2.*',
  SPOT_ALLOCATION_STRATEGY: 'lowest-price',
  PRIORITIZED_INSTANCE_TYPES_BIAS: 'prefer_newer_generations',
  CRON_SCHEDULE: '9-18 1-5',
  CRON_TIMEZONE: 'Europe/Berlin',
  CRON_SCHEDULE_STATE: 'off',
  GRACE_PERIOD: '120',
  MAX_REPLACEMENTS_IN_FLIGHT: '2',
  ON_DEMAND_PRICE_MULTIPLIER: '1.5',
  TERMINATION_NOTIFICATION_ACTION: 'detach',
  REBALANCE_ACTION: 'ignore',
  CHEAPER_POOL_MIN_SAVING_PERCENTAGE: '25',
  IGNORE_LAUNCH_HOOKS: 'true',
  ALLOW_XEN_TO_NITRO: 'true',
  ALLOW_GPU_MODEL_CHANGE: 'true',
  ALLOW_CPU_VENDOR_CHANGE: 'false',
  ALLOW_GENERATION_CHANGE: 'false',
  REPLACE_SCHEDULED: 'false',
}
const CUSTOM_FALLBACK: Record<keyof GroupConfig, string> = {
  minOnDemandNumber: '1',
  minOnDemandPercentage: '10',
  allowedInstanceTypes: 'm5.*,c5.*',
  disallowedInstanceTypes: 't2.*',
  spotAllocationStrategy: 'lowest-price',
  prioritizedInstanceTypesBias: 'prefer_newer_generations',
  cronSchedule: '9-18 1-5',
  cronTimezone: 'Europe/Berlin',
  cronScheduleState: 'off',
  gracePeriodSeconds: '120',
  maxReplacementsInFlight: '2',
  onDemandPriceMultiplier: '1.5',
  terminationNotificationAction: 'detach',
  rebalanceAction: 'ignore',
  cheaperPoolMinSavingPercentage: '25',
  ignoreLaunchHooks: 'true',
  allowXenToNitro: 'true',
  allowGpuModelChange: 'true',
  allowCpuVendorChange: 'false',
  allowGenerationChange: 'false',
  replaceScheduled: 'false',
}
const BUILT_IN_FALLBACK: Record<keyof GroupConfig, string> = {
  minOnDemandNumber: '0',
  minOnDemandPercentage: '0',
  allowedInstanceTypes: '(empty)',
  disallowedInstanceTypes: '(empty)',
  spotAllocationStrategy: 'price-capacity-optimized',
  prioritizedInstanceTypesBias: 'lowest_price',
  cronSchedule: '* *',
  cronTimezone: 'UTC',
  cronScheduleState: 'on',
  gracePeriodSeconds: 'unset',
  maxReplacementsInFlight: 'auto',
  onDemandPriceMultiplier: '1',
  terminationNotificationAction: 'auto',
  rebalanceAction: 'replace',
  cheaperPoolMinSavingPercentage: '10',
  ignoreLaunchHooks: 'false',
  allowXenToNitro: 'false',
  allowGpuModelChange: 'false',
  allowCpuVendorChange: 'true',
  allowGenerationChange: 'true',
  replaceScheduled: 'true',
}

const DEFAULT_SETS = [
  { label: 'built-in defaults', defaults: BUILT_IN_DEFAULTS, fallback: BUILT_IN_FALLBACK },
  {
    label: 'custom global defaults',
    defaults: parseGlobalConfig(CUSTOM_ENV).config.defaults,
    fallback: CUSTOM_FALLBACK,
  },
] as const

const keyOfTag = (tag: string): keyof GroupConfig | undefined =>
  GROUP_SETTINGS.find((s) => groupTagName(s.env) === tag)?.key

/** A setting as the corpus writes it: a cron schedule by its text, everything else as JSON. */
const asJson = (value: unknown): unknown =>
  typeof value === 'object' && value !== null && 'raw' in value ? (value as { raw: string }).raw : value

const corpus = loadTagCorpus()
const cases = corpus.flatMap((entry) =>
  DEFAULT_SETS.map((set) => ({ ...set, entry, name: `${tagLabel(entry)} (${set.label})` })),
)

/** [name, case] rows: `%s` prints the whole name, where `$name` would truncate it. */
const named = <T extends { name: string }>(rows: readonly T[]): [string, T][] => rows.map((r) => [r.name, r])

const resolve = (entry: TagEntry, defaults: GroupConfig) =>
  groupConfig(defaults, GROUP, { 'spot-enabled': 'true', ...entry.with, [entry.tag]: entry.value })

const checkResolution = ({
  entry,
  defaults,
  fallback,
}: {
  entry: TagEntry
  defaults: GroupConfig
  fallback: Record<keyof GroupConfig, string>
}) => {
  const { config, errors } = resolve(entry, defaults)
  const key = keyOfTag(entry.tag)
  if (entry.expect.effective === 'not-a-setting') {
    expect(key).toBeUndefined()
    // An `autospotting_*` name that sets nothing is reported so a typo is visible; other names are not ours.
    const reported = entry.tag.startsWith('autospotting_')
    expect(errors).toEqual(
      reported
        ? [
            expect.objectContaining({
              name: entry.tag,
              fallback: 'ignored',
              expected: expect.stringContaining(entry.expect.expected ?? ''),
            }),
          ]
        : [],
    )
    expect(config).toEqual(defaults)
    return
  }
  if (key === undefined) throw new Error(`${entry.tag} is not a setting; use effective 'not-a-setting'`)
  const mine = errors.filter((e) => e.name === entry.tag)
  if (entry.expect.configError) {
    expect(mine).toEqual([
      {
        source: 'tag',
        name: entry.tag,
        value: entry.value,
        expected: expect.stringContaining(entry.expect.expected ?? ''),
        group: GROUP,
        fallback: fallback[key],
        fatal: false,
      },
    ])
  } else {
    expect(mine).toEqual([])
  }
  // Companion tags are valid: no other error may appear.
  expect(errors.filter((e) => e.name !== entry.tag)).toEqual([])
  const wanted = entry.expect.effective === 'default' ? asJson(defaults[key]) : entry.expect.effective
  expect(asJson(config[key])).toEqual(wanted)
  // The fallback is for that key only: every setting no tag names keeps the global default.
  const named = new Set([entry.tag, ...Object.keys(entry.with)].map(keyOfTag))
  for (const setting of GROUP_SETTINGS.filter((s) => !named.has(s.key)))
    expect(config[setting.key], setting.key).toEqual(defaults[setting.key])
}

describe('tag corpus through groupConfig', () => {
  it.each(named(cases.filter((c) => c.entry.knownBug === undefined)))('%s', (_, c) => checkResolution(c))

  // Known product bugs: each entry's knownBug says what is wrong. These pass while the bug exists.
  it.fails.each(named(cases.filter((c) => c.entry.knownBug !== undefined)))('%s', (_, c) =>
    checkResolution(c),
  )
})
