/**
 * The CDK app's settings, read from context: cdk.json holds the defaults and `-c key=value` overrides
 * any of them. App settings are namespaced `spotswap:`; the Lambdas' configuration uses the variable
 * names themselves (`-c MIN_ON_DEMAND_NUMBER=1`), as AutoSpotting users know them.
 */
import { DEFAULT_SCHEDULE_MINUTES } from '../lambdas/core/constants.ts'
import {
  CONFIGURATION_VARIABLES,
  type ConfigurationVariable,
  InvalidSettingsError,
  type SettingProblem,
  type SpotSwapConfiguration,
  unknownSetting,
} from './configuration.ts'
import { DEFAULT_REGIONS, isRegionName } from './default-regions.ts'
import { type PassableRoles, parsePassableRoles } from './pass-role.ts'
import { MAX_SCHEDULE_MINUTES } from './spotswap-props.ts'

export interface AppConfig {
  readonly homeRegion: string
  /** Every covered region, the home region included. */
  readonly regions: readonly string[]
  readonly scheduleMinutes: number
  readonly configuration: SpotSwapConfiguration
  readonly notificationEmail: string | undefined
  /** An existing SNS topic every alarm notifies. */
  readonly alarmTopicArn: string | undefined
  readonly rehearsalGroupName: string | undefined
  /** Undefined: the construct's default (roles tagged spotswap:passable=true). */
  readonly passableRoles: PassableRoles | undefined
  /** Undefined: the construct's default (/spotswap/kill-switch). */
  readonly killSwitchParameterName?: string | undefined
  /** From the CLI's credentials when there are any; synth works without. */
  readonly account: string | undefined
}

export const AppContextKey = {
  homeRegion: 'spotswap:homeRegion',
  regions: 'spotswap:regions',
  scheduleMinutes: 'spotswap:scheduleMinutes',
  notificationEmail: 'spotswap:notificationEmail',
  alarmTopicArn: 'spotswap:alarmTopicArn',
  rehearsalGroup: 'spotswap:rehearsalGroup',
  /** `tag:<key>=<value>` (default tag:spotswap:passable=true), `path:/<path>/` or `any`. */
  passableRoles: 'spotswap:passableRoles',
  /** The SSM parameter the stack creates as the kill switch. */
  killSwitchParameter: 'spotswap:killSwitchParameter',
} as const

const APP_KEYS: readonly string[] = Object.values(AppContextKey)
const FALLBACK_HOME_REGION = 'us-east-1'

export class InvalidContextError extends InvalidSettingsError {
  override readonly name = 'InvalidContextError'
  constructor(problems: readonly SettingProblem[], heading = 'invalid context') {
    super(problems, heading)
  }
}

const invalid = (key: string, value: unknown, expected: string): InvalidContextError =>
  new InvalidContextError([
    { setting: key, value: typeof value === 'string' ? value : JSON.stringify(value), expected },
  ])

/** Context values arrive as JSON from cdk.json and as strings from `-c`. */
const textOf = (key: string, value: unknown): string => {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return value.map((item) => textOf(key, item)).join(',')
  throw invalid(key, value, 'expected a string')
}

const list = (key: string, value: unknown): string[] =>
  textOf(key, value)
    .split(/[\s,]+/)
    .filter((item) => item.length > 0)

const isConfigurationVariable = (key: string): key is ConfigurationVariable =>
  (CONFIGURATION_VARIABLES as readonly string[]).includes(key)

/** Upper-case keys look like Lambda variables: a misspelt one must fail, not be silently ignored. */
const looksLikeVariable = (key: string): boolean => /^[A-Z][A-Z0-9_]*$/.test(key)

/** `arn:<partition>:sns:<region>:<account>:<name>`; names per https://docs.aws.amazon.com/sns/latest/api/API_CreateTopic.html */
const SNS_TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/

const alarmTopicArnOf = (value: string): string | undefined => {
  if (value === '') return undefined
  if (!SNS_TOPIC_ARN.test(value))
    throw invalid(
      AppContextKey.alarmTopicArn,
      value,
      'an SNS topic ARN such as arn:aws:sns:eu-west-1:123456789012:oncall',
    )
  return value
}

const passableRolesOf = (value: string): PassableRoles | undefined => {
  if (value === '') return undefined
  try {
    return parsePassableRoles(value)
  } catch (error) {
    throw invalid(AppContextKey.passableRoles, value, (error as Error).message)
  }
}

export const readAppConfig = (
  context: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): AppConfig => {
  const unknown = Object.keys(context)
    .filter(
      (key) =>
        (key.startsWith('spotswap:') && !APP_KEYS.includes(key)) ||
        (looksLikeVariable(key) && !isConfigurationVariable(key)),
    )
    .map((key) =>
      unknownSetting(key, context[key], key.startsWith('spotswap:') ? APP_KEYS : CONFIGURATION_VARIABLES),
    )
  if (unknown.length > 0) throw new InvalidContextError(unknown, 'unknown context key(s)')
  const text = (key: string): string => textOf(key, context[key])

  const homeRegion = text(AppContextKey.homeRegion) || env.CDK_DEFAULT_REGION || FALLBACK_HOME_REGION
  const listed = list(AppContextKey.regions, context[AppContextKey.regions])
  const covered = listed.length > 0 ? listed : [...DEFAULT_REGIONS]
  const regions = [homeRegion, ...covered.filter((region) => region !== homeRegion)]
  const notRegions = [...new Set(regions.filter((region) => !isRegionName(region)))]
  if (notRegions.length > 0) {
    throw invalid(
      notRegions.includes(homeRegion) ? AppContextKey.homeRegion : AppContextKey.regions,
      notRegions.join(','),
      'not a region name (globs are not allowed here)',
    )
  }

  const scheduleText = text(AppContextKey.scheduleMinutes)
  const scheduleMinutes = scheduleText === '' ? DEFAULT_SCHEDULE_MINUTES : Number(scheduleText)
  if (!Number.isInteger(scheduleMinutes) || scheduleMinutes < 1 || scheduleMinutes > MAX_SCHEDULE_MINUTES) {
    throw invalid(
      AppContextKey.scheduleMinutes,
      scheduleText,
      `expected a whole number of minutes from 1 to ${MAX_SCHEDULE_MINUTES}`,
    )
  }

  const configuration: Partial<Record<ConfigurationVariable, string>> = {}
  for (const variable of CONFIGURATION_VARIABLES) {
    const value = text(variable)
    if (value !== '') configuration[variable] = value
  }

  return {
    homeRegion,
    regions: [...new Set(regions)],
    scheduleMinutes,
    configuration,
    notificationEmail: text(AppContextKey.notificationEmail) || undefined,
    alarmTopicArn: alarmTopicArnOf(text(AppContextKey.alarmTopicArn)),
    rehearsalGroupName: text(AppContextKey.rehearsalGroup) || undefined,
    passableRoles: passableRolesOf(text(AppContextKey.passableRoles)),
    killSwitchParameterName: text(AppContextKey.killSwitchParameter) || undefined,
    account: env.CDK_DEFAULT_ACCOUNT || undefined,
  }
}
