/**
 * One `spotswap verify` run: choose the type, create the group, drive spotswap on it, check, price and
 * delete. Whatever happens after the first resource is created, the run ends by deleting what carries
 * its tag; a run killed before that is cleaned up by `verify --cleanup --run-id <id>`.
 */
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import type { Log } from '../../lambdas/core/log.ts'
import { latestSpotPrices, spotPriceOf } from '../../lambdas/core/plan/prices.ts'
import type { CloudPort } from '../../lambdas/core/port.ts'
import type { CliIo } from '../shared/io.ts'
import type { PreflightClients } from './preflight-reads.ts'
import {
  cleansLaunchesCheck,
  convergesCheck,
  interruptionCheck,
  leavesThroughAutoScalingCheck,
  servesCheck,
  type VerifyCheck,
} from './verify-checks.ts'
import { cleanUp, leftoverCount, leftoverText } from './verify-cleanup.ts'
import type { VerifyClients } from './verify-clients.ts'
import { estimateCost } from './verify-cost.ts'
import { drive } from './verify-drive.ts'
import { createRunKey } from './verify-key.ts'
import { type RecordedWrite, recordWrites } from './verify-recorder.ts'
import {
  createGroup,
  createLaunchTemplate,
  createLoadBalancer,
  findSubnets,
  latestAmazonLinux,
  VERIFY_GROUP_SIZE,
} from './verify-resources.ts'
import { rolesDeniedCheck } from './verify-roles.ts'
import { launchesSeen, launchTemplateCheck, unlessTemplateUnprovable } from './verify-template-check.ts'
import { chooseVerifyType, type TypeChoice } from './verify-type.ts'

/** Where verify reaches the account; tests replace the clock (and may stop a run after a step). */
export interface VerifyDeps {
  readonly clients: (region: string) => Promise<VerifyClients>
  /** The adapter the handlers use; `markerKeyArn` signs and verifies their markers. */
  readonly cloud: (region: string, log: Log, markerKeyArn?: string) => Promise<CloudPort>
  readonly preflightClients: (region: string) => Promise<PreflightClients>
  readonly now: () => Date
  readonly sleep: (ms: number) => Promise<void>
  /** Told each step as it is done (`group-created`, ...). */
  readonly onStep?: (step: string) => void
}

export interface VerifyOptions {
  readonly region: string
  readonly runId: string
  readonly subnets: readonly string[]
  readonly withLoadBalancer: boolean
  readonly deadlineMinutes: number
  readonly waitSeconds: number
  readonly cleanupMinutes: number
  /** Where the SpotSwap stack (and its roles) is looked for. */
  readonly homeRegion: string
}

const PLATFORM = 'Linux/UNIX'

const collectingLog = (lines: string[]): Log => ({
  debug: () => {},
  info: () => {},
  warn: (message, attributes) => lines.push(`warning: ${message} ${JSON.stringify(attributes ?? {})}`),
  error: (message, attributes) => lines.push(`error: ${message} ${JSON.stringify(attributes ?? {})}`),
})

const market = async (deps: VerifyDeps, options: VerifyOptions, log: Log) => {
  const cloud = await deps.cloud(options.region, log)
  const catalog = await cloud.describeInstanceTypes()
  const onDemand = await cloud.onDemandPrices(PLATFORM)
  const spotPrices = latestSpotPrices(await cloud.describeSpotPrices(PLATFORM, deps.now()))
  return { cloud, catalog, onDemand, spotPrices }
}

const setUp = async (
  deps: VerifyDeps,
  clients: VerifyClients,
  options: VerifyOptions,
  choice: TypeChoice,
  subnets: Awaited<ReturnType<typeof findSubnets>>,
) => {
  const imageId = await latestAmazonLinux(clients)
  const launchTemplateId = await createLaunchTemplate(clients, options.runId, {
    instanceType: choice.instanceType,
    imageId,
    webServer: options.withLoadBalancer,
  })
  const balancer = options.withLoadBalancer
    ? await createLoadBalancer(clients, options.runId, subnets)
    : undefined
  const group = await createGroup(clients, options.runId, {
    launchTemplateId,
    subnets,
    targetGroupArn: balancer?.targetGroupArn,
  })
  deps.onStep?.('group-created')
  return { group, launchTemplateId }
}

const checkLine = (c: VerifyCheck) => `  ${c.status.padEnd(12)} ${c.name}: ${c.reason}`

export const verifyRun = async (deps: VerifyDeps, options: VerifyOptions, io: CliIo): Promise<number> => {
  const { region, runId } = options
  const logLines: string[] = []
  const log = collectingLog(logLines)
  io.out(
    `spotswap verify: run ${runId} in ${region}. If it is interrupted: spotswap verify --region ${region} --cleanup --run-id ${runId}\n`,
  )
  const clients = await deps.clients(region)
  const { catalog, onDemand, spotPrices } = await market(deps, options, log)
  const allSubnets = await findSubnets(clients, options.subnets)
  const choice = chooseVerifyType({
    catalog,
    onDemandPrices: onDemand.prices,
    spotPrices,
    zones: allSubnets.map((s) => s.zone),
    config: parseGlobalConfig({}).config.defaults,
  })
  if (choice === undefined) {
    io.err(`spotswap verify: no instance type in ${region} has two spot candidates in the subnets' zones\n`)
    return 1
  }
  const subnets = allSubnets.filter((s) => choice.zones.includes(s.zone))
  io.out(
    `Group of ${VERIFY_GROUP_SIZE.desired} × ${choice.instanceType} ($${choice.onDemandPriceUsd.toFixed(4)}/hour on demand; spot candidates ${choice.candidates.slice(0, 5).join(', ')}) in ${subnets.map((s) => s.zone).join(', ')}.\n`,
  )
  const writes: RecordedWrite[] = []
  const checks: VerifyCheck[] = []
  let costLine = ''
  try {
    const markerKeyArn = await createRunKey(clients, runId)
    const { group, launchTemplateId } = await setUp(deps, clients, options, choice, subnets)
    const started = deps.now()
    const result = await drive({
      cloud: recordWrites(await deps.cloud(region, log, markerKeyArn), writes),
      runId,
      group,
      desired: VERIFY_GROUP_SIZE.desired,
      clock: deps,
      waitMs: options.waitSeconds * 1000,
      deadline: new Date(started.getTime() + options.deadlineMinutes * 60_000),
      log,
      progress: (line) => io.out(`  ${line}\n`),
    })
    const desired = VERIFY_GROUP_SIZE.desired
    const template = launchTemplateCheck(launchesSeen(result.observations), launchTemplateId)
    checks.push(
      template,
      ...unlessTemplateUnprovable(template, [
        convergesCheck(result.observations, desired, result.onDemandSeen),
        servesCheck(result.observations, desired),
        leavesThroughAutoScalingCheck(writes),
        cleansLaunchesCheck(result.observations),
        interruptionCheck(result.observations, desired, result.interruption),
      ]),
      {
        name: 'interruption-source',
        status: 'not-possible',
        reason:
          'the warning was a synthetic EventBridge event given to the handler, not the FIS rehearsal (spotswap:rehearsalGroup); EC2 did not interrupt the instance',
      },
    )
    if (result.deadlinePassed)
      checks.push({
        name: 'deadline',
        status: 'fail',
        reason: `not done within ${options.deadlineMinutes} minutes`,
      })
    const cost = estimateCost(result.observations, (type, lifecycle, zone) =>
      lifecycle === 'spot' ? spotPriceOf(spotPrices, type, zone) : onDemand.prices.get(type),
    )
    costLine = `Cost, estimated: $${cost.usd.toFixed(4)} for ${cost.instanceHours.toFixed(2)} instance-hours (on-demand prices: ${onDemand.source}; spot: current price history)${cost.unpriced.length > 0 ? `; not priced: ${cost.unpriced.join(', ')}` : ''}${options.withLoadBalancer ? '; the load balancer is not included' : ''}.`
  } catch (error) {
    checks.push({
      name: 'run',
      status: 'fail',
      reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    })
  } finally {
    checks.push(await rolesDeniedCheck(await deps.preflightClients(options.homeRegion), region))
    const cleanupDeadline = new Date(deps.now().getTime() + options.cleanupMinutes * 60_000)
    const cleaned = await cleanUp(clients, runId, deps, cleanupDeadline)
    checks.push(
      leftoverCount(cleaned.remaining) === 0
        ? {
            name: 'deleted',
            status: 'pass',
            reason: `everything the run created is gone (${leftoverText(cleaned.deleted)})`,
          }
        : {
            name: 'deleted',
            status: 'fail',
            reason: `still there: ${leftoverText(cleaned.remaining)}; run --cleanup --run-id ${runId}`,
          },
    )
  }
  io.out(['', 'Checks:', ...checks.map(checkLine), '', costLine, ''].join('\n'))
  for (const line of logLines) io.err(`${line}\n`)
  const failed = checks.filter((c) => c.status === 'fail')
  const notPossible = checks.filter((c) => c.status === 'not-possible')
  if (notPossible.length > 0) io.out(`Not possible here: ${notPossible.map((c) => c.name).join(', ')}.\n`)
  io.out(
    failed.length === 0 ? 'verify passed.\n' : `verify FAILED: ${failed.map((c) => c.name).join(', ')}\n`,
  )
  return failed.length === 0 ? 0 : 1
}
