/**
 * The CDK app's settings, read from context: cdk.json holds the defaults and `-c key=value` overrides
 * any of them. App settings are namespaced `spotswap:`; the Lambdas' configuration uses the variable
 * names themselves (`-c MIN_ON_DEMAND_NUMBER=1`), as AutoSpotting users know them.
 */
import { DEFAULT_SCHEDULE_MINUTES } from '../lambdas/core/constants.ts'
import {
  CONFIGURATION_VARIABLES,
  type ConfigurationVariable,
  type SpotSwapConfiguration,
} from './configuration.ts'
import { DEFAULT_REGIONS, isRegionName } from './default-regions.ts'
import { type PassableRoles, parsePassableRoles } from './pass-role.ts'

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
} as const

const APP_KEYS: readonly string[] = Object.values(AppContextKey)
const FALLBACK_HOME_REGION = 'us-east-1'

export class InvalidContextError extends Error {
  override readonly name = 'InvalidContextError'
}

/** Context values arrive as JSON from cdk.json and as strings from `-c`. */
const text = (value: unknown): string => {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return value.map(text).join(',')
  throw new InvalidContextError(`expected a string, got ${JSON.stringify(value)}`)
}

const list = (value: unknown): string[] =>
  text(value)
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
    throw new InvalidContextError(
      `${AppContextKey.alarmTopicArn} must be an SNS topic ARN such as arn:aws:sns:eu-west-1:123456789012:oncall, got ${value}`,
    )
  return value
}

const passableRolesOf = (value: string): PassableRoles | undefined => {
  if (value === '') return undefined
  try {
    return parsePassableRoles(value)
  } catch (error) {
    throw new InvalidContextError(`${AppContextKey.passableRoles}: ${(error as Error).message}`)
  }
}

export const readAppConfig = (
  context: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): AppConfig => {
  const unknown = Object.keys(context).filter(
    (key) =>
      (key.startsWith('spotswap:') && !APP_KEYS.includes(key)) ||
      (looksLikeVariable(key) && !isConfigurationVariable(key)),
  )
  if (unknown.length > 0) {
    throw new InvalidContextError(
      `unknown context key(s) ${unknown.join(', ')}; app settings: ${APP_KEYS.join(', ')}; Lambda settings: ${CONFIGURATION_VARIABLES.join(', ')}`,
    )
  }

  const homeRegion = text(context[AppContextKey.homeRegion]) || env.CDK_DEFAULT_REGION || FALLBACK_HOME_REGION
  const listed = list(context[AppContextKey.regions])
  const covered = listed.length > 0 ? listed : [...DEFAULT_REGIONS]
  const regions = [homeRegion, ...covered.filter((region) => region !== homeRegion)]
  const invalid = [...new Set(regions.filter((region) => !isRegionName(region)))]
  if (invalid.length > 0) {
    throw new InvalidContextError(`not a region name: ${invalid.join(', ')} (globs are not allowed here)`)
  }

  const scheduleText = text(context[AppContextKey.scheduleMinutes])
  const scheduleMinutes = scheduleText === '' ? DEFAULT_SCHEDULE_MINUTES : Number(scheduleText)
  if (!Number.isInteger(scheduleMinutes)) {
    throw new InvalidContextError(
      `${AppContextKey.scheduleMinutes} must be a whole number of minutes, got ${scheduleText}`,
    )
  }

  const configuration: Partial<Record<ConfigurationVariable, string>> = {}
  for (const variable of CONFIGURATION_VARIABLES) {
    const value = text(context[variable])
    if (value !== '') configuration[variable] = value
  }

  return {
    homeRegion,
    regions: [...new Set(regions)],
    scheduleMinutes,
    configuration,
    notificationEmail: text(context[AppContextKey.notificationEmail]) || undefined,
    alarmTopicArn: alarmTopicArnOf(text(context[AppContextKey.alarmTopicArn])),
    rehearsalGroupName: text(context[AppContextKey.rehearsalGroup]) || undefined,
    passableRoles: passableRolesOf(text(context[AppContextKey.passableRoles])),
    account: env.CDK_DEFAULT_ACCOUNT || undefined,
  }
}
