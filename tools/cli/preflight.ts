/**
 * `spotswap plan`'s pre-flight check: what would stop the replacer once deployed, found before. Each
 * check ends ok, warn or fail with a one-line reason; a check that cannot run (a permission, an API error)
 * is a warning naming what it needed, never a crash.
 */
import { errorCode, errorMessage, isNotFound } from '../../lambdas/aws/errors.ts'
import type { LaunchTemplateRef } from '../../lambdas/core/types.ts'
import type { MarketSeen } from './plan-market.ts'
import type { PlannedGroup } from './plan-report.ts'
import type { PreflightCheck } from './preflight-check.ts'
import { quotaNeeds } from './preflight-quotas.ts'
import {
  ec2QuotaValue,
  type InstanceRole,
  launchTemplateProfile,
  mayPassRole,
  notOptedInRegions,
  type PreflightClients,
  profileRole,
  roleArn,
  stackRoleName,
} from './preflight-reads.ts'

export interface LaunchSource {
  readonly group: string
  readonly launchTemplate: LaunchTemplateRef | undefined
  readonly launchConfigurationName: string | undefined
}

export interface PreflightRegion {
  readonly region: string
  readonly groups: readonly PlannedGroup[]
  readonly market: MarketSeen
  /** The managed groups' launch templates (or launch configurations), for their instance roles. */
  readonly launchSources: readonly LaunchSource[]
}

export interface PreflightInput {
  readonly regions: readonly PreflightRegion[]
  /** Regions named literally (--region, REGIONS): one the account has not opted in to fails. */
  readonly namedRegions: readonly string[]
  /** Where the SpotSwap stack is looked for, and IAM and DescribeRegions are asked. */
  readonly homeRegion: string
  /** The replacer's role ARN when given (--replacer-role); otherwise found from the deployed stack. */
  readonly replacerRoleArn: string | undefined
}

/** The home stack and the replacer's role in it (lib/stacks.ts HOME_STACK_NAME, lib/functions.ts `${id}Role`). */
export const HOME_STACK = 'SpotSwap'
export const REPLACER_ROLE_PREFIX = 'SpotSwapReplacerRole'

/** A read that failed, with the permission it needed: the warning names it rather than a list. */
class PreflightReadError extends Error {
  override readonly name = 'PreflightReadError'
  constructor(
    readonly permission: string,
    options: { cause: unknown },
  ) {
    super(`${permission} failed`, options)
  }
}

const needs = async <T>(permission: string, read: Promise<T>): Promise<T> => {
  try {
    return await read
  } catch (error) {
    throw new PreflightReadError(permission, { cause: error })
  }
}

/** A check that could not run: a warning naming the permission it needed and the error. */
const notChecked = (
  check: PreflightCheck['check'],
  permission: string,
  error: unknown,
  region?: string,
): PreflightCheck => ({
  check,
  status: 'warn',
  ...(region === undefined ? {} : { region }),
  reason: `not checked: needs ${permission} (${errorCode(error)}: ${errorMessage(error)})`,
})

const attempt = async (
  check: PreflightCheck['check'],
  permission: string,
  region: string | undefined,
  run: () => Promise<PreflightCheck[]>,
): Promise<PreflightCheck[]> => {
  try {
    return await run()
  } catch (error) {
    if (error instanceof PreflightReadError) return [notChecked(check, error.permission, error.cause, region)]
    return [notChecked(check, permission, error, region)]
  }
}

/** The types conversion would launch: this run's first candidates, and the current type of those to come. */
const typesToLaunch = (groups: readonly PlannedGroup[]): string[] =>
  groups.flatMap((g) => [
    ...g.launches.flatMap((l) => (l.candidates[0] ? [l.candidates[0].instanceType] : [])),
    ...g.stillOnDemand.filter((s) => s.projectedHourlySavingsUsd !== undefined).map((s) => s.type),
  ])

const spotQuotas = async (clients: PreflightClients, region: PreflightRegion): Promise<PreflightCheck[]> => {
  const { needs, unknown } = quotaNeeds(typesToLaunch(region.groups), region.market.catalog)
  const checks: PreflightCheck[] = []
  for (const need of needs) {
    const value = await ec2QuotaValue(clients, need.quota.code)
    const what = `${need.quota.name} (${need.quota.code})`
    if (value === undefined)
      checks.push({ check: 'spot-quota', status: 'warn', region: region.region, reason: `${what}: no value` })
    else
      checks.push({
        check: 'spot-quota',
        status: need.vcpus > value ? 'fail' : 'ok',
        region: region.region,
        reason: `${what} is ${value} vCPUs; converting ${need.instances} instance(s) needs ${need.vcpus}, on top of the spot instances already running`,
      })
  }
  if (unknown.length > 0)
    checks.push({
      check: 'spot-quota',
      status: 'warn',
      region: region.region,
      reason: `no Spot quota or vCPU count known for ${unknown.join(', ')}: not checked`,
    })
  if (checks.length === 0)
    checks.push({ check: 'spot-quota', status: 'ok', region: region.region, reason: 'nothing to launch' })
  return checks
}

const regionsCheck = async (
  clients: PreflightClients,
  named: readonly string[],
): Promise<PreflightCheck[]> => {
  const closed = await notOptedInRegions(clients)
  const blocked = named.filter((r) => closed.includes(r))
  if (blocked.length > 0)
    return [
      {
        check: 'regions',
        status: 'fail',
        reason: `not opted in, so nothing can be deployed or replaced there: ${blocked.join(', ')}`,
      },
    ]
  return [
    {
      check: 'regions',
      status: 'ok',
      reason:
        closed.length === 0
          ? 'every region is enabled'
          : `${closed.length} region(s) not opted in are left out: ${closed.join(', ')}`,
    },
  ]
}

/** Pricing was asked by the replacer's own reads: its answer is in the market plan recorded. */
const pricingCheck = (regions: readonly PreflightRegion[]): PreflightCheck[] => {
  const embedded = new Set<string>()
  let asked = false
  for (const { market } of regions)
    for (const [platform, prices] of market.onDemandPrices) {
      asked = true
      if (prices.source !== 'pricing-api') embedded.add(platform)
    }
  if (!asked) return [{ check: 'pricing', status: 'ok', reason: 'not asked: no managed group needed prices' }]
  if (embedded.size === 0) return [{ check: 'pricing', status: 'ok', reason: 'the Pricing API answered' }]
  return [
    {
      check: 'pricing',
      status: 'warn',
      reason: `no Pricing API answer for ${[...embedded].sort().join(', ')} (needs pricing:GetProducts): on-demand prices and savings come from the embedded us-east-1 table, estimated`,
    },
  ]
}

const findReplacerRole = async (clients: PreflightClients, input: PreflightInput) => {
  if (input.replacerRoleArn !== undefined) return input.replacerRoleArn
  const name = await stackRoleName(clients, HOME_STACK, REPLACER_ROLE_PREFIX)
  return name === undefined ? undefined : needs('iam:GetRole', roleArn(clients, name))
}

/** Each managed group's instance role, by role ARN, with the groups that use it. */
const instanceRoles = async (
  clientsOf: (region: string) => PreflightClients,
  regions: readonly PreflightRegion[],
): Promise<{ roles: Map<string, { role: InstanceRole; groups: string[] }>; unchecked: string[] }> => {
  const roles = new Map<string, { role: InstanceRole; groups: string[] }>()
  const unchecked: string[] = []
  for (const { region, launchSources } of regions)
    for (const source of launchSources) {
      if (source.launchTemplate === undefined) {
        if (source.launchConfigurationName !== undefined) unchecked.push(`${region}/${source.group}`)
        continue
      }
      const clients = clientsOf(region)
      const profile = await needs(
        'ec2:DescribeLaunchTemplateVersions',
        launchTemplateProfile(clients, source.launchTemplate),
      )
      const role =
        profile === undefined
          ? undefined
          : await needs('iam:GetInstanceProfile and iam:GetRole', profileRole(clients, profile))
      if (role === undefined) continue
      const entry = roles.get(role.arn) ?? { role, groups: [] }
      entry.groups.push(`${region}/${source.group}`)
      roles.set(role.arn, entry)
    }
  return { roles, unchecked }
}

const passRoleCheck = async (
  clientsOf: (region: string) => PreflightClients,
  input: PreflightInput,
): Promise<PreflightCheck[]> => {
  const home = clientsOf(input.homeRegion)
  let replacer: string | undefined
  try {
    replacer = await findReplacerRole(home, input)
  } catch (error) {
    if (error instanceof PreflightReadError || !isNotFound(error))
      throw error instanceof PreflightReadError
        ? error
        : new PreflightReadError('cloudformation:DescribeStackResources', { cause: error })
  }
  if (replacer === undefined)
    return [
      {
        check: 'pass-role',
        status: 'warn',
        reason: `not checked: no ${HOME_STACK} stack with a replacer role in ${input.homeRegion} (deploy first, or pass --replacer-role ARN)`,
      },
    ]
  const { roles, unchecked } = await instanceRoles(clientsOf, input.regions)
  const checks: PreflightCheck[] = []
  for (const { role, groups } of roles.values()) {
    const { allowed, decision } = await needs(
      'iam:SimulatePrincipalPolicy',
      mayPassRole(home, replacer, role),
    )
    checks.push({
      check: 'pass-role',
      status: allowed ? 'ok' : 'fail',
      reason: allowed
        ? `the replacer may pass ${role.arn} (${groups.join(', ')})`
        : `the replacer may not pass ${role.arn} (${decision}), so it cannot launch for ${groups.join(', ')}: mark the role passable (spotswap:passableRoles)`,
    })
  }
  if (unchecked.length > 0)
    checks.push({
      check: 'pass-role',
      status: 'warn',
      reason: `not checked for launch-configuration groups: ${unchecked.join(', ')}`,
    })
  if (checks.length === 0)
    checks.push({
      check: 'pass-role',
      status: 'ok',
      reason: 'no managed group launches with an instance role',
    })
  return checks
}

export const preflight = async (
  input: PreflightInput,
  clientsOf: (region: string) => PreflightClients,
): Promise<PreflightCheck[]> => {
  const passRole = attempt(
    'pass-role',
    'cloudformation:DescribeStackResources, iam:GetRole, ec2:DescribeLaunchTemplateVersions, iam:GetInstanceProfile, iam:SimulatePrincipalPolicy',
    undefined,
    () => passRoleCheck(clientsOf, input),
  )
  const quotas = input.regions.map((region) =>
    attempt('spot-quota', 'servicequotas:GetServiceQuota', region.region, () =>
      spotQuotas(clientsOf(region.region), region),
    ),
  )
  const regions = attempt('regions', 'ec2:DescribeRegions', undefined, () =>
    regionsCheck(clientsOf(input.homeRegion), input.namedRegions),
  )
  const answers = await Promise.all([passRole, ...quotas, regions])
  return [...answers.flat(), ...pricingCheck(input.regions)]
}
