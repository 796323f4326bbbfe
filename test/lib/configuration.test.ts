import { describe, expect, it } from 'vitest'
import { GROUP_SETTINGS } from '../../lambdas/core/config/settings.ts'
import { CONFIGURATION_VARIABLES, validateConfiguration } from '../../lib/configuration.ts'

describe('CONFIGURATION_VARIABLES', () => {
  it('is exactly what the Lambdas read: every group setting plus the global tag, dry-run, log-level and metrics switches', () => {
    const read = [
      ...GROUP_SETTINGS.map((s) => s.env),
      'TAG_FILTERS',
      'TAG_FILTERING_MODE',
      'DRY_RUN',
      'LOG_LEVEL',
      'GROUP_METRICS',
      'COMMITMENTS',
    ]
    expect([...CONFIGURATION_VARIABLES].sort()).toEqual(read.sort())
  })
})

describe('validateConfiguration', () => {
  it('accepts the empty configuration: every value has a built-in default', () => {
    expect(validateConfiguration({}).tagFilters).toEqual([{ key: 'spot-enabled', value: 'true' }])
  })

  it('treats an empty value as unset, like the Lambdas do', () => {
    expect(validateConfiguration({ MIN_ON_DEMAND_NUMBER: '' }).defaults.minOnDemandNumber).toBe(0)
  })

  it.each([
    ['MIN_ON_DEMAND_PERCENTAGE', '150'],
    ['TAG_FILTERS', 'no-equals-sign'],
    ['TAG_FILTERING_MODE', 'sometimes'],
    ['CRON_SCHEDULE', '25 *'],
    ['SPOT_ALLOCATION_STRATEGY', 'cheapest'],
    ['DRY_RUN', 'maybe'],
    ['LOG_LEVEL', 'LOUD'],
    ['COMMITMENTS', 'ri us-east-1 two m5.large'],
  ])('refuses %s=%s, naming the variable and the value', (name, value) => {
    expect(() => validateConfiguration({ [name]: value })).toThrow(`${name}=${JSON.stringify(value)}`)
  })

  it('refuses an unknown variable', () => {
    expect(() => validateConfiguration({ REGIONS: 'eu-*' } as never)).toThrow(
      /unknown configuration variable\(s\):\n {2}REGIONS="eu-\*": not a setting/,
    )
  })

  it('suggests the closest variable for a misspelt one', () => {
    expect(() => validateConfiguration({ MIN_ON_DEMAND_NUMBR: '1' } as never)).toThrow(
      'MIN_ON_DEMAND_NUMBR="1": not a setting; did you mean MIN_ON_DEMAND_NUMBER?',
    )
  })

  it.each(['DEBUG', 'debug', 'WARN', 'SILENT'])('accepts LOG_LEVEL=%s', (level) => {
    expect(() => validateConfiguration({ LOG_LEVEL: level })).not.toThrow()
  })
})
