import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { InvalidContextError, readAppConfig } from '../../lib/app-config.ts'
import { DEFAULT_REGIONS } from '../../lib/default-regions.ts'

const cdkJsonContext = (): Record<string, unknown> =>
  (
    JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
      context: Record<string, unknown>
    }
  ).context

describe('readAppConfig', () => {
  it("reads cdk.json's defaults: every always-enabled region, home in the CLI's region, every 5 minutes", () => {
    const config = readAppConfig(cdkJsonContext(), {
      CDK_DEFAULT_REGION: 'eu-central-1',
      CDK_DEFAULT_ACCOUNT: '111122223333',
    })
    expect(config.homeRegion).toBe('eu-central-1')
    expect(config.regions[0]).toBe('eu-central-1')
    expect([...config.regions].sort()).toEqual([...DEFAULT_REGIONS].sort())
    expect(config.scheduleMinutes).toBe(5)
    expect(config.account).toBe('111122223333')
    expect(config.configuration).toEqual({
      TAG_FILTERS: 'spot-enabled=true',
      TAG_FILTERING_MODE: 'opt-in',
      DRY_RUN: 'false',
    })
    expect(config.notificationEmail).toBeUndefined()
    expect(config.rehearsalGroupName).toBeUndefined()
  })

  it('synthesizes offline: no account and no region configured means us-east-1 and an environment-agnostic account', () => {
    const config = readAppConfig(cdkJsonContext(), {})
    expect(config.homeRegion).toBe('us-east-1')
    expect(config.account).toBeUndefined()
  })

  it('takes -c overrides as strings, as the CLI passes them', () => {
    const config = readAppConfig(
      {
        ...cdkJsonContext(),
        'spotswap:homeRegion': 'eu-west-1',
        'spotswap:regions': 'eu-west-1, us-east-1 ap-southeast-4',
        'spotswap:scheduleMinutes': '10',
        'spotswap:notificationEmail': 'ops@example.com',
        'spotswap:rehearsalGroup': 'web',
        MIN_ON_DEMAND_NUMBER: '1',
        DRY_RUN: 'true',
      },
      {},
    )
    expect(config).toMatchObject({
      homeRegion: 'eu-west-1',
      regions: ['eu-west-1', 'us-east-1', 'ap-southeast-4'],
      scheduleMinutes: 10,
      notificationEmail: 'ops@example.com',
      rehearsalGroupName: 'web',
    })
    expect(config.configuration).toMatchObject({ MIN_ON_DEMAND_NUMBER: '1', DRY_RUN: 'true' })
  })

  it('always covers the home region, first, even when the region list leaves it out', () => {
    const config = readAppConfig(
      { 'spotswap:homeRegion': 'eu-west-1', 'spotswap:regions': ['us-east-1'] },
      {},
    )
    expect(config.regions).toEqual(['eu-west-1', 'us-east-1'])
  })

  it.each([
    [
      { MIN_ONDEMAND_NUMBER: '1' },
      /MIN_ONDEMAND_NUMBER="1": not a setting; did you mean MIN_ON_DEMAND_NUMBER\?/,
    ],
    [
      { 'spotswap:region': 'eu-west-1' },
      /spotswap:region="eu-west-1": not a setting; did you mean spotswap:regions\?/,
    ],
    [{ 'spotswap:regions': 'eu-*' }, /spotswap:regions="eu-\*": not a region name/],
    [
      { 'spotswap:scheduleMinutes': 'often' },
      /spotswap:scheduleMinutes="often": expected a whole number of minutes/,
    ],
    [
      { 'spotswap:scheduleMinutes': '0' },
      /spotswap:scheduleMinutes="0": expected a whole number of minutes from 1/,
    ],
    [{ 'spotswap:scheduleMinutes': 1441 }, /spotswap:scheduleMinutes="1441": expected a whole number/],
    [{ 'spotswap:regions': { eu: 1 } }, /spotswap:regions="\{\\"eu\\":1\}": expected a string/],
  ])('refuses %j, naming the key and the value', (context, message) => {
    expect(() => readAppConfig(context, {})).toThrow(message)
  })

  it('lists the settings when no known key is close to an unknown one', () => {
    expect(() => readAppConfig({ COMPLETELY_DIFFERENT: 'x' }, {})).toThrow(
      /COMPLETELY_DIFFERENT="x": not a setting; known: TAG_FILTERS, /,
    )
  })

  it('carries each problem as data: setting, value and what was expected', () => {
    try {
      readAppConfig({ DRYRUN: 'true' }, {})
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidContextError)
      expect((error as InvalidContextError).problems).toEqual([
        { setting: 'DRYRUN', value: 'true', expected: 'not a setting; did you mean DRY_RUN?' },
      ])
    }
  })

  it('accepts LOG_LEVEL, which the Lambdas pass to Powertools', () => {
    expect(readAppConfig({ LOG_LEVEL: 'DEBUG' }, {}).configuration).toMatchObject({ LOG_LEVEL: 'DEBUG' })
  })

  it("ignores CDK's own context keys", () => {
    expect(() =>
      readAppConfig({ '@aws-cdk/core:newStyleStackSynthesis': true, 'aws:cdk:bundling-stacks': [] }, {}),
    ).not.toThrow()
  })
})
