import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readAppConfig } from '../../lib/app-config.ts'
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
    [{ MIN_ONDEMAND_NUMBER: '1' }, /unknown context key\(s\) MIN_ONDEMAND_NUMBER/],
    [{ 'spotswap:region': 'eu-west-1' }, /unknown context key\(s\) spotswap:region/],
    [{ 'spotswap:regions': 'eu-*' }, /not a region name: eu-\*/],
    [{ 'spotswap:scheduleMinutes': 'often' }, /whole number of minutes/],
    [{ 'spotswap:regions': { eu: 1 } }, /expected a string/],
  ])('refuses %j', (context, message) => {
    expect(() => readAppConfig(context, {})).toThrow(message)
  })

  it("ignores CDK's own context keys", () => {
    expect(() =>
      readAppConfig({ '@aws-cdk/core:newStyleStackSynthesis': true, 'aws:cdk:bundling-stacks': [] }, {}),
    ).not.toThrow()
  })
})
