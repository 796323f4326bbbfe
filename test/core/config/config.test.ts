import { describe, expect, it } from 'vitest'
import type { GroupConfig } from '../../../lambdas/core/config/config.ts'
import { parseCronSchedule } from '../../../lambdas/core/config/cron.ts'
import { parseGlobalConfig } from '../../../lambdas/core/config/global-config.ts'
import { groupConfig } from '../../../lambdas/core/config/group-config.ts'
import { BUILT_IN_DEFAULTS, GROUP_SETTINGS, groupTagName } from '../../../lambdas/core/config/settings.ts'
import { parseTagFilters } from '../../../lambdas/core/config/values.ts'
import { MAX_GLOB_WILDCARDS } from '../../../lambdas/core/constants.ts'

/** Global defaults that differ from the built-in ones, so a fallback to "the global default" is visible. */
const GLOBAL_ENV = {
  MIN_ON_DEMAND_NUMBER: '1',
  MIN_ON_DEMAND_PERCENTAGE: '10',
  ALLOWED_INSTANCE_TYPES: 'm5.*,c5.*',
  DISALLOWED_INSTANCE_TYPES: 't2.*',
  SPOT_ALLOCATION_STRATEGY: 'lowest-price',
  PRIORITIZED_INSTANCE_TYPES_BIAS: 'prefer_newer_generations',
  CRON_SCHEDULE: '9-18 1-5',
  CRON_TIMEZONE: 'Europe/Berlin',
  CRON_SCHEDULE_STATE: 'off',
  MAX_REPLACEMENTS_IN_FLIGHT: '2',
  ON_DEMAND_PRICE_MULTIPLIER: '1.5',
  TERMINATION_NOTIFICATION_ACTION: 'detach',
  REBALANCE_ACTION: 'ignore',
  CHEAPER_POOL_MIN_SAVING_PERCENTAGE: '20',
  IGNORE_LAUNCH_HOOKS: 'true',
  ALLOW_XEN_TO_NITRO: 'true',
  ALLOW_GPU_MODEL_CHANGE: 'true',
  ALLOW_CPU_VENDOR_CHANGE: 'false',
  ALLOW_GENERATION_CHANGE: 'false',
}
const globalDefaults = (): GroupConfig => parseGlobalConfig(GLOBAL_ENV).config.defaults

const keyOf = (env: string): keyof GroupConfig => {
  const setting = GROUP_SETTINGS.find((s) => s.env === env)
  if (!setting) throw new Error(`no setting ${env}`)
  return setting.key
}

/** One good sample per setting: the raw value and what it parses to. */
const GOOD: readonly [env: string, raw: string, parsed: unknown][] = [
  ['MIN_ON_DEMAND_NUMBER', '3', 3],
  ['MIN_ON_DEMAND_PERCENTAGE', '33.5', 33.5],
  ['ALLOWED_INSTANCE_TYPES', 'm5.*, c6i.large current', ['m5.*', 'c6i.large', 'current']],
  ['DISALLOWED_INSTANCE_TYPES', 'r5*', ['r5*']],
  ['SPOT_ALLOCATION_STRATEGY', 'capacity-optimized-prioritized', 'capacity-optimized-prioritized'],
  ['PRIORITIZED_INSTANCE_TYPES_BIAS', 'lowest_price', 'lowest_price'],
  ['CRON_SCHEDULE', '0-5,22-23 6,7', parseCronSchedule('0-5,22-23 6,7')],
  ['CRON_TIMEZONE', 'America/New_York', 'America/New_York'],
  ['CRON_SCHEDULE_STATE', 'on', 'on'],
  ['GRACE_PERIOD', '600', 600],
  ['MAX_REPLACEMENTS_IN_FLIGHT', '50%', { kind: 'percent', value: 50 }],
  ['ON_DEMAND_PRICE_MULTIPLIER', '0.8', 0.8],
  ['TERMINATION_NOTIFICATION_ACTION', 'terminate', 'terminate'],
  ['REBALANCE_ACTION', 'detach', 'detach'],
  ['CHEAPER_POOL_MIN_SAVING_PERCENTAGE', '25', 25],
  ['IGNORE_LAUNCH_HOOKS', 'TRUE', true],
  ['ALLOW_XEN_TO_NITRO', 'true', true],
  ['ALLOW_GPU_MODEL_CHANGE', 'true', true],
  ['ALLOW_CPU_VENDOR_CHANGE', 'false', false],
  ['ALLOW_GENERATION_CHANGE', 'false', false],
  ['REPLACE_SCHEDULED', 'false', false],
]

describe('GROUP_SETTINGS', () => {
  it('has a sample in this test for every setting', () => {
    expect(GOOD.map(([env]) => env).sort()).toEqual(GROUP_SETTINGS.map((s) => s.env).sort())
  })

  it('names every tag autospotting_ + the lower-case variable name', () => {
    expect(groupTagName('MIN_ON_DEMAND_NUMBER')).toBe('autospotting_min_on_demand_number')
  })

  it('has the documented built-in defaults', () => {
    expect(BUILT_IN_DEFAULTS).toEqual({
      minOnDemandNumber: 0,
      minOnDemandPercentage: 0,
      allowedInstanceTypes: [],
      disallowedInstanceTypes: [],
      spotAllocationStrategy: 'price-capacity-optimized',
      prioritizedInstanceTypesBias: 'lowest_price',
      cronSchedule: parseCronSchedule('* *'),
      cronTimezone: 'UTC',
      cronScheduleState: 'on',
      gracePeriodSeconds: undefined,
      maxReplacementsInFlight: { kind: 'auto' },
      onDemandPriceMultiplier: 1,
      terminationNotificationAction: 'auto',
      rebalanceAction: 'replace',
      cheaperPoolMinSavingPercentage: 10,
      ignoreLaunchHooks: false,
      allowXenToNitro: false,
      allowGpuModelChange: false,
      allowCpuVendorChange: true,
      allowGenerationChange: true,
      replaceScheduled: true,
    })
  })

  it.each(GOOD)('reads %s=%j from the environment', (env, raw, parsed) => {
    const { config, errors } = parseGlobalConfig({ [env]: raw })
    expect(errors).toEqual([])
    expect(config.defaults[keyOf(env)]).toEqual(parsed)
  })

  it.each(GOOD)(
    'lets the autospotting_ tag of %s override the global default with %j',
    (env, raw, parsed) => {
      const { config, errors } = groupConfig(globalDefaults(), 'web', { [groupTagName(env)]: raw })
      expect(errors).toEqual([])
      expect(config[keyOf(env)]).toEqual(parsed)
      // Every other key keeps the global default.
      expect({ ...config, [keyOf(env)]: undefined }).toEqual({ ...globalDefaults(), [keyOf(env)]: undefined })
    },
  )

  it.each([
    ['MIN_ON_DEMAND_NUMBER', ' 5 ', 5],
    ['MIN_ON_DEMAND_PERCENTAGE', '.5', 0.5],
    ['SPOT_ALLOCATION_STRATEGY', 'Lowest-Price', 'lowest-price'],
    ['CRON_SCHEDULE_STATE', ' OFF ', 'off'],
    ['MAX_REPLACEMENTS_IN_FLIGHT', '1', { kind: 'count', value: 1 }],
    ['MAX_REPLACEMENTS_IN_FLIGHT', '100%', { kind: 'percent', value: 100 }],
    ['MAX_REPLACEMENTS_IN_FLIGHT', ' auto ', { kind: 'auto' }],
    ['MAX_REPLACEMENTS_IN_FLIGHT', 'AUTO', { kind: 'auto' }],
    ['ON_DEMAND_PRICE_MULTIPLIER', '10', 10],
    ['GRACE_PERIOD', '0', 0],
    ['ALLOWED_INSTANCE_TYPES', '*', ['*']],
  ])('accepts the edge value %s=%j', (env, raw, parsed) => {
    const { config, errors } = groupConfig(BUILT_IN_DEFAULTS, 'web', { [groupTagName(env)]: raw })
    expect(errors).toEqual([])
    expect(config[keyOf(env)]).toEqual(parsed)
  })

  it('ignores tags that are not settings', () => {
    const { config, errors } = groupConfig(globalDefaults(), 'web', { team: 'web', 'spot-enabled': 'true' })
    expect({ config, errors }).toEqual({ config: globalDefaults(), errors: [] })
  })
})

type BadValue = readonly [env: string, raw: string, expected: RegExp, fallback: string]
/** Bad values of one setting, what the error must say was expected, and the global default kept. */
const refused =
  (env: string, expected: RegExp, fallback: string) =>
  (...raws: string[]): BadValue[] =>
    raws.map((raw) => [env, raw, expected, fallback])
const integer = refused('MIN_ON_DEMAND_NUMBER', /an integer from 0 to 10000/, '1')
const percentage = refused('MIN_ON_DEMAND_PERCENTAGE', /a number from 0 to 100/, '10')
const allowed = refused('ALLOWED_INSTANCE_TYPES', /instance type globs/, 'm5.*,c5.*')
const strategy = refused(
  'SPOT_ALLOCATION_STRATEGY',
  /one of price-capacity-optimized, capacity-optimized-prioritized, lowest-price/,
  'lowest-price',
)
const bias = refused(
  'PRIORITIZED_INSTANCE_TYPES_BIAS',
  /one of lowest_price, prefer_newer_generations/,
  'prefer_newer_generations',
)
const cron = refused('CRON_SCHEDULE', /'<hours> <days-of-week>' such as '9-18 1-5'/, '9-18 1-5')
const timezone = refused('CRON_TIMEZONE', /an IANA time zone/, 'Europe/Berlin')
const inFlight = refused(
  'MAX_REPLACEMENTS_IN_FLIGHT',
  /a count from 1 to 10000 .* a percentage above 0%/,
  '2',
)
const multiplier = refused('ON_DEMAND_PRICE_MULTIPLIER', /a number above 0 up to 10/, '1.5')
const tooManyWildcards = new RegExp(`at most ${MAX_GLOB_WILDCARDS} wildcards \\(\\* or \\?\\) per glob`)

const BAD: readonly BadValue[] = [
  ...integer('two', '-1', '1.5', '1e3', 'NaN', 'Infinity', '-Infinity', '10001', '0x10', '+1', '1 0'),
  ...integer('9'.repeat(400), '٣', '５', '', '   '),
  ...percentage('101', '-5', '50%', 'NaN', '1e2', '', '-0.1', 'Infinity'),
  ...allowed('m5.[ab]', 'c5.large,m5.{large,xlarge}', 'm5.lärge', '(t2|t3).*'),
  ...refused('ALLOWED_INSTANCE_TYPES', /a non-empty value/, 'm5.*,c5.*')('', ' \t '),
  ...refused('DISALLOWED_INSTANCE_TYPES', /instance type globs/, 't2.*')('t2.[a-z]*'),
  ...refused('DISALLOWED_INSTANCE_TYPES', /a non-empty value/, 't2.*')(''),
  ...refused(
    'ALLOWED_INSTANCE_TYPES',
    tooManyWildcards,
    'm5.*,c5.*',
  )('*'.repeat(MAX_GLOB_WILDCARDS + 1), `m5.*,${'?'.repeat(MAX_GLOB_WILDCARDS + 1)}`),
  ...refused('DISALLOWED_INSTANCE_TYPES', tooManyWildcards, 't2.*')(`${'*a'.repeat(MAX_GLOB_WILDCARDS)}*b`),
  ...strategy('cheapest', 'capacity_optimized', 'LOWEST_PRICE', ''),
  ...bias('newest', 'prefer-newer-generations'),
  ...cron('25 *', '9-18', '0 9-18 * * 1-5', 'always', '18-9 1-5', '*/2 *', ''),
  ...timezone('Mars/Olympus', 'Europe/Berlín', 'GMT+25', 'x'.repeat(300), ''),
  ...refused('CRON_SCHEDULE_STATE', /one of on, off/, 'off')('enabled', 'yes', ''),
  ...refused('GRACE_PERIOD', /an integer from 0 to 86400/, 'unset')('-30', '86401', '5m', '1e3', ''),
  ...inFlight('0', '0%', '101%', '-1', '25 %', '%25', '1e3', '10001', 'all', ''),
  ...multiplier('0', '-1', '11', 'Infinity', 'NaN', '1e0', ''),
  ...refused(
    'TERMINATION_NOTIFICATION_ACTION',
    /one of auto, replace, detach, terminate/,
    'detach',
  )('explode'),
  ...refused('REBALANCE_ACTION', /one of replace, detach, ignore/, 'ignore')('sometimes'),
  ...refused('CHEAPER_POOL_MIN_SAVING_PERCENTAGE', /a number from 0 to 100/, '20')('-5', '101', '10%', ''),
  ...refused('IGNORE_LAUNCH_HOOKS', /true or false/, 'true')('yes', '1', 'on'),
  ...refused('ALLOW_XEN_TO_NITRO', /true or false/, 'true')('yes'),
  ...refused('ALLOW_GPU_MODEL_CHANGE', /true or false/, 'true')('1'),
  ...refused('ALLOW_CPU_VENDOR_CHANGE', /true or false/, 'false')('no'),
  ...refused('ALLOW_GENERATION_CHANGE', /true or false/, 'false')('off'),
]

/** A valid tag for a different setting, to show it still applies next to a bad one. */
const otherGoodTag = (env: string): [string, string, string] =>
  env === 'GRACE_PERIOD'
    ? ['MIN_ON_DEMAND_NUMBER', '4', 'minOnDemandNumber']
    : ['GRACE_PERIOD', '120', 'gracePeriodSeconds']

describe('groupConfig with a bad tag', () => {
  it.each(BAD)(
    'refuses %s=%j naming the group, tag, value and what was expected',
    (env, raw, expected, fallback) => {
      const [otherEnv, otherRaw, otherKey] = otherGoodTag(env)
      const tags = { [groupTagName(env)]: raw, [groupTagName(otherEnv)]: otherRaw }
      const { config, errors } = groupConfig(globalDefaults(), 'web', tags)
      expect(errors).toEqual([
        {
          source: 'tag',
          name: groupTagName(env),
          value: raw,
          expected: expect.stringMatching(expected),
          group: 'web',
          fallback,
          fatal: false,
        },
      ])
      expect(config[keyOf(env)]).toEqual(globalDefaults()[keyOf(env)])
      expect(config[otherKey as keyof GroupConfig]).toBe(Number(otherRaw))
    },
  )

  it('names the bad items of a type list, not just the list', () => {
    const { errors } = groupConfig(globalDefaults(), 'web', {
      autospotting_allowed_instance_types: 'c5.large m5.[ab] r5.{large,xlarge}',
    })
    expect(errors[0]?.expected).toMatch(/\(bad: m5\.\[ab\] r5\.\{large xlarge\}\)$/)
  })

  it('reports each bad tag of a group and keeps the global default for each of them only', () => {
    const { config, errors } = groupConfig(globalDefaults(), 'web', {
      autospotting_min_on_demand_number: 'two',
      autospotting_cron_timezone: 'Berlin',
      autospotting_rebalance_action: 'detach',
    })
    expect(errors.map((e) => e.name)).toEqual([
      'autospotting_min_on_demand_number',
      'autospotting_cron_timezone',
    ])
    expect(config).toEqual({ ...globalDefaults(), rebalanceAction: 'detach' })
  })

  it('does not affect another group', () => {
    const defaults = globalDefaults()
    groupConfig(defaults, 'broken', { autospotting_min_on_demand_number: 'two' })
    expect(groupConfig(defaults, 'fine', { autospotting_min_on_demand_number: '3' })).toEqual({
      config: { ...defaults, minOnDemandNumber: 3 },
      errors: [],
    })
  })
})

describe('parseGlobalConfig', () => {
  it('has working defaults with an empty environment', () => {
    expect(parseGlobalConfig({})).toEqual({
      config: {
        regions: [],
        tagFilters: [{ key: 'spot-enabled', value: 'true' }],
        tagFilteringMode: 'opt-in',
        dryRun: false,
        fanoutQueueUrl: undefined,
        scheduleMinutes: 5,
        groupMetrics: false,
        commitments: { mode: 'account' },
        defaults: BUILT_IN_DEFAULTS,
      },
      errors: [],
    })
  })

  it('reads the run-wide settings', () => {
    const { config, errors } = parseGlobalConfig({
      REGIONS: 'us-east-1, eu-*  ap-south-?',
      TAG_FILTERS: 'spot-enabled=true, team=web*',
      TAG_FILTERING_MODE: 'OPT-OUT',
      DRY_RUN: 'TRUE',
      FANOUT_QUEUE_URL: ' https://sqs.us-east-1.amazonaws.com/123456789012/spotswap.fifo ',
      SCHEDULE_MINUTES: '10',
    })
    expect(errors).toEqual([])
    expect(config).toMatchObject({
      regions: ['us-east-1', 'eu-*', 'ap-south-?'],
      tagFilters: [
        { key: 'spot-enabled', value: 'true' },
        { key: 'team', value: 'web*' },
      ],
      tagFilteringMode: 'opt-out',
      dryRun: true,
      fanoutQueueUrl: 'https://sqs.us-east-1.amazonaws.com/123456789012/spotswap.fifo',
      scheduleMinutes: 10,
    })
  })

  it('treats an empty or blank variable as unset', () => {
    const blank = Object.fromEntries(
      [...GROUP_SETTINGS.map((s) => s.env), 'REGIONS', 'TAG_FILTERS', 'TAG_FILTERING_MODE', 'DRY_RUN'].map(
        (env, i) => [env, i % 2 === 0 ? '' : '  '],
      ),
    )
    expect(parseGlobalConfig(blank)).toEqual(parseGlobalConfig({}))
  })

  it.each(BAD.filter(([, raw]) => raw.trim() !== ''))(
    'falls back to the built-in default for %s=%j',
    (env, raw, expected) => {
      const { config, errors } = parseGlobalConfig({
        [env]: raw,
        GRACE_PERIOD: env === 'GRACE_PERIOD' ? raw : '90',
      })
      expect(errors).toEqual([
        expect.objectContaining({ source: 'env', name: env, value: raw, group: undefined, fatal: false }),
      ])
      expect(errors[0]?.expected).toMatch(expected)
      expect(config.defaults[keyOf(env)]).toEqual(BUILT_IN_DEFAULTS[keyOf(env)])
      if (env !== 'GRACE_PERIOD') expect(config.defaults.gracePeriodSeconds).toBe(90)
    },
  )

  it.each([
    ['REGIONS', 'US-EAST-1'],
    ['REGIONS', 'us_east_1'],
    ['REGIONS', 'eu-west-1;rm'],
    ['TAG_FILTERS', 'spot-enabled'],
    ['TAG_FILTERS', '=true'],
    ['TAG_FILTERS', 'spot-enabled='],
    ['TAG_FILTERS', 'team=web app'],
    ['TAG_FILTERS', 'team=[web]'],
    ['TAG_FILTERS', ','],
    ['TAG_FILTERS', `${'k'.repeat(129)}=v`],
    ['TAG_FILTERS', `spot-enabled=true,team=${'*'.repeat(MAX_GLOB_WILDCARDS)}?`],
    ['REGIONS', `us-east-1,${'*'.repeat(MAX_GLOB_WILDCARDS + 1)}`],
    ['TAG_FILTERING_MODE', 'opt_in'],
    ['TAG_FILTERING_MODE', 'everything'],
  ])('makes %s=%j fatal: it decides which groups are touched', (name, raw) => {
    const { errors } = parseGlobalConfig({ [name]: raw, MIN_ON_DEMAND_NUMBER: '2' })
    expect(errors).toEqual([
      {
        source: 'env',
        name,
        value: raw,
        expected: expect.any(String),
        group: undefined,
        fallback: 'none: no action this run',
        fatal: true,
      },
    ])
  })

  it.each([
    ['TAG_FILTERS', `team=${'*'.repeat(MAX_GLOB_WILDCARDS - 1)}?`],
    ['REGIONS', `us-east-1,us-${'?'.repeat(MAX_GLOB_WILDCARDS)}`],
  ])('accepts %s=%j: as many wildcards as a glob may hold', (name, raw) => {
    expect(parseGlobalConfig({ [name]: raw }).errors).toEqual([])
  })

  it.each([
    ['TAG_FILTERS', `spot-enabled=true,team=${'*'.repeat(MAX_GLOB_WILDCARDS)}b*`],
    ['REGIONS', `us-east-1,${'*-'.repeat(MAX_GLOB_WILDCARDS + 1)}1`],
  ])('says how many wildcards a glob may hold when %s has one with more', (name, raw) => {
    const { errors } = parseGlobalConfig({ [name]: raw })
    expect(errors).toEqual([expect.objectContaining({ name, value: raw, fatal: true })])
    expect(errors[0]?.expected).toMatch(tooManyWildcards)
  })

  it.each([
    ['true', true, false],
    ['TRUE', true, false],
    [' false ', false, false],
    ['False', false, false],
    ['', false, false],
    ['yes', true, true],
    ['1', true, true],
    ['flase', true, true],
  ])('reads DRY_RUN=%j as %s (unreadable means on, the safe side; error: %s)', (raw, dryRun, hasError) => {
    const { config, errors } = parseGlobalConfig({ DRY_RUN: raw })
    expect(config.dryRun).toBe(dryRun)
    expect(errors).toEqual(
      hasError
        ? [
            expect.objectContaining({
              name: 'DRY_RUN',
              value: raw,
              expected: 'true or false',
              fallback: 'true',
            }),
          ]
        : [],
    )
  })

  it.each(['0', '1441', 'five'])('falls back to 5 minutes for SCHEDULE_MINUTES=%j', (raw) => {
    const { config, errors } = parseGlobalConfig({ SCHEDULE_MINUTES: raw })
    expect(config.scheduleMinutes).toBe(5)
    expect(errors).toEqual([
      expect.objectContaining({ name: 'SCHEDULE_MINUTES', fallback: '5', fatal: false }),
    ])
  })
})

describe('parseTagFilters', () => {
  it.each([
    ['spot-enabled=true', [{ key: 'spot-enabled', value: 'true' }]],
    [
      ' a = b , c=d* ,',
      [
        { key: 'a', value: 'b' },
        { key: 'c', value: 'd*' },
      ],
    ],
    ['k=v=w', [{ key: 'k', value: 'v=w' }]],
    ['aws:cloudformation:stack-name=prod-*', [{ key: 'aws:cloudformation:stack-name', value: 'prod-*' }]],
  ])('reads %j', (raw, filters) => {
    expect(parseTagFilters(raw)).toEqual({ ok: true, value: filters })
  })
})

describe('AutoSpotting values', () => {
  it.each(['lower_cost', 'LOWER_COST', ' lower_cost '])(
    "reads the bias %j, AutoSpotting's name, as lowest_price",
    (raw) => {
      const { config, errors } = groupConfig(BUILT_IN_DEFAULTS, 'web', {
        autospotting_prioritized_instance_types_bias: raw,
      })
      expect(errors).toEqual([])
      expect(config.prioritizedInstanceTypesBias).toBe('lowest_price')
    },
  )
})

describe('autospotting_* tags that set nothing', () => {
  it.each([
    ['autospotting_bidding_policy', 'normal', 'has no spotswap equivalent'],
    ['autospotting_min_on_demand_numbr', '3', 'did you mean autospotting_min_on_demand_number?'],
    ['autospotting_colour', 'blue', 'known: autospotting_min_on_demand_number, '],
  ])('reports %s=%s and ignores it', (name, value, expected) => {
    const { config, errors } = groupConfig(BUILT_IN_DEFAULTS, 'web', { [name]: value })
    expect(errors).toEqual([
      {
        source: 'tag',
        name,
        value,
        expected: expect.stringContaining(expected),
        group: 'web',
        fallback: 'ignored',
        fatal: false,
      },
    ])
    expect(config).toEqual(BUILT_IN_DEFAULTS)
  })

  it('says nothing about the tag AutoSpotting itself writes on the groups it converted', () => {
    const tags = { autospotting_enable_instance_launch_event_handling: 'true' }
    expect(groupConfig(BUILT_IN_DEFAULTS, 'web', tags).errors).toEqual([])
  })

  it('says nothing about tags outside the autospotting_ namespace', () => {
    expect(groupConfig(BUILT_IN_DEFAULTS, 'web', { team: 'web', 'spot-enabled': 'true' }).errors).toEqual([])
  })
})

describe('environment variables close to one the Lambdas read', () => {
  it.each([
    ['MIN_ONDEMAND_NUMBER', 'MIN_ON_DEMAND_NUMBER'],
    ['DRYRUN', 'DRY_RUN'],
    ['TAG_FILTER', 'TAG_FILTERS'],
  ])('reports %s as a likely %s, and uses nothing from it', (name, meant) => {
    const { config, errors } = parseGlobalConfig({ [name]: '1' })
    expect(errors).toEqual([
      expect.objectContaining({
        source: 'env',
        name,
        expected: `a spotswap variable: did you mean ${meant}?`,
        fallback: 'ignored',
        fatal: false,
      }),
    ])
    expect(config.defaults).toEqual(BUILT_IN_DEFAULTS)
  })

  it.each(['AWS_REGION', 'AWS_LAMBDA_LOG_LEVEL', 'PATH', 'NODE_OPTIONS', 'TZ', 'LANG'])(
    'leaves %s alone',
    (name) => {
      expect(parseGlobalConfig({ [name]: 'x' }).errors).toEqual([])
    },
  )

  it('reports a LOG_LEVEL Powertools does not know', () => {
    expect(parseGlobalConfig({ LOG_LEVEL: 'LOUD' }).errors).toEqual([
      expect.objectContaining({ name: 'LOG_LEVEL', value: 'LOUD', fallback: 'INFO', fatal: false }),
    ])
    expect(parseGlobalConfig({ LOG_LEVEL: 'debug' }).errors).toEqual([])
  })
})
