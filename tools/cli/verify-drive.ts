/**
 * Drives spotswap on `verify`'s group: the replacer and the interruption handler run in this process,
 * built by their own create-handler with the user's credentials (the deployed Lambdas are not invoked),
 * a few times with short waits between (a CLI may wait; a Lambda never does), until the group converges
 * or the deadline passes. Between runs it looks at the group, for the checks of verify-checks.ts.
 */
import { randomUUID } from 'node:crypto'
import {
  REGION_LANES,
  TAG_LAUNCH_TEMPLATE_ID,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_SWAP,
} from '../../lambdas/core/constants.ts'
import { discardMetrics, type Log } from '../../lambdas/core/log.ts'
import type { CloudPort } from '../../lambdas/core/port.ts'
import { laneOf } from '../../lambdas/core/region/lanes.ts'
import { createHandler as createInterruptionHandler } from '../../lambdas/interruption/create-handler.ts'
import { createHandler as createReplacerHandler } from '../../lambdas/replacer/create-handler.ts'
import { regionWorkEvent } from '../../lambdas/replacer/event-registry.ts'
import {
  type InterruptionOutcome,
  isConverged,
  type MemberView,
  type Observation,
  type Phase,
} from './verify-checks.ts'
import { VERIFY_RUN_TAG } from './verify-resources.ts'
import { withoutTemplateTag } from './verify-template-check.ts'

export interface DriveClock {
  readonly now: () => Date
  readonly sleep: (ms: number) => Promise<void>
}

export interface DriveInput {
  readonly cloud: CloudPort
  readonly runId: string
  readonly group: string
  readonly desired: number
  readonly clock: DriveClock
  readonly waitMs: number
  readonly deadline: Date
  readonly log: Log
  /** One line per handler run, for the user to follow. */
  readonly progress: (line: string) => void
}

export interface DriveResult {
  readonly observations: readonly Observation[]
  /** Every on-demand member seen while converting: all must have left by the end. */
  readonly onDemandSeen: readonly string[]
  readonly interruption: InterruptionOutcome | undefined
  readonly deadlinePassed: boolean
}

/**
 * The handlers manage only this run's group: TAG_FILTERS names its run tag besides `spot-enabled=true`,
 * so nothing else in the account can match, whatever the user's own environment says.
 */
export const handlerEnv = (region: string, runId: string): Record<string, string> => ({
  AWS_REGION: region,
  REGIONS: region,
  TAG_FILTERS: `spot-enabled=true,${VERIFY_RUN_TAG}=${runId}`,
  TAG_FILTERING_MODE: 'opt-in',
})

const memberViews = async (cloud: CloudPort, ids: readonly string[], states: ReadonlyMap<string, string>) => {
  const instances = ids.length === 0 ? [] : await cloud.describeInstances(ids)
  return instances.map(
    (i): MemberView => ({
      id: i.id,
      lifecycle: i.lifecycle,
      lifecycleState: states.get(i.id) ?? i.state,
      type: i.type,
      zone: i.zone,
    }),
  )
}

export const observe = async (input: DriveInput, phase: Phase): Promise<Observation> => {
  const { cloud, group, runId } = input
  const [found] = await cloud.describeGroups({ tagKey: VERIFY_RUN_TAG, tagValues: [runId], names: [group] })
  if (found === undefined) throw new Error(`the verify group ${group} is gone`)
  const states = new Map(found.members.map((m) => [m.instanceId, m.lifecycleState]))
  const launched = (await cloud.describeLaunchedSpotInstances()).filter(
    (i) => i.tags[TAG_LAUNCHED_FOR_GROUP] === group,
  )
  return {
    at: input.clock.now(),
    phase,
    desired: found.desiredCapacity,
    members: await memberViews(cloud, [...states.keys()], states),
    swapOpen: found.tags[TAG_SWAP] !== undefined,
    launched: launched.map((i) => ({
      id: i.id,
      lifecycle: i.lifecycle,
      lifecycleState: i.state,
      type: i.type,
      zone: i.zone,
      ...(i.tags[TAG_LAUNCH_TEMPLATE_ID] === undefined
        ? {}
        : { launchTemplateId: i.tags[TAG_LAUNCH_TEMPLATE_ID] }),
    })),
  }
}

const replacerFor = (input: DriveInput) => {
  const handle = createReplacerHandler({
    env: handlerEnv(input.cloud.region, input.runId),
    now: input.clock.now,
    log: input.log,
    metrics: discardMetrics,
    cloudFor: () => input.cloud,
    regionDirectory: { enabledRegions: async () => [input.cloud.region] },
    enqueue: async () => {
      throw new Error('verify runs the replacer without a fan-out queue')
    },
  })
  return async (): Promise<string> => {
    // The group's own lane, as its run requests are delivered (replacer/lane-messages.ts groupMessage).
    const lane = laneOf(input.group, REGION_LANES)
    const summary = await handle(regionWorkEvent(input.cloud.region, input.clock.now(), [input.group], lane))
    const region = summary.regions[0]
    if (!summary.ok || region?.error !== undefined)
      return `failed: ${region?.error ?? JSON.stringify(summary.configErrors)}`
    const actions = (region?.groups?.[0]?.actions ?? []) as {
      kind?: string
      status?: string
      instanceId?: string
    }[]
    return actions.length === 0
      ? 'nothing to do'
      : actions.map((a) => `${a.kind} ${a.status} ${a.instanceId ?? ''}`.trim()).join(', ')
  }
}

/**
 * Runs the replacer until the group converges (and `until` holds), or the deadline. Launches EC2 wrote no
 * template tag on (verify-template-check.ts) end it at once: spotswap attaches none of them, so waiting
 * for the deadline would only cost the user money.
 */
const convergeLoop = async (
  input: DriveInput,
  phase: Phase,
  observations: Observation[],
  until: (o: Observation) => boolean = () => true,
): Promise<boolean> => {
  const runReplacer = replacerFor(input)
  for (let run = 1; ; run++) {
    const seen = await observe(input, phase)
    observations.push(seen)
    if (run > 1 && isConverged(seen, input.desired) && until(seen)) return true
    if (input.clock.now() >= input.deadline || withoutTemplateTag(seen.launched)) return false
    input.progress(`${phase} run ${run}: ${await runReplacer()}`)
    await input.clock.sleep(input.waitMs)
  }
}

/**
 * The event EC2 sends two minutes before it interrupts a spot instance, as EventBridge delivers it
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html).
 */
export const interruptionWarning = (region: string, instanceId: string, at: Date) => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'EC2 Spot Instance Interruption Warning',
  source: 'aws.ec2',
  account: '000000000000',
  time: at.toISOString(),
  region,
  resources: [`arn:aws:ec2:${region}:000000000000:instance/${instanceId}`],
  detail: { 'instance-id': instanceId, 'instance-action': 'terminate' },
})

const interrupt = async (input: DriveInput, member: string): Promise<InterruptionOutcome> => {
  const handle = createInterruptionHandler({
    env: handlerEnv(input.cloud.region, input.runId),
    cloudFor: () => input.cloud,
    log: input.log,
    metrics: discardMetrics,
    now: input.clock.now,
  })
  const summary = await handle(interruptionWarning(input.cloud.region, member, input.clock.now()))
  const result = summary.results[0]
  const outcome =
    result === undefined
      ? 'no result'
      : `${result.outcome}: ${'reason' in result ? String(result.reason) : ''}`
  input.progress(`interruption warning for ${member}: ${outcome}`)
  return { instanceId: member, outcome }
}

export const drive = async (input: DriveInput): Promise<DriveResult> => {
  const observations: Observation[] = []
  const converged = await convergeLoop(input, 'convert', observations)
  const onDemandSeen = [
    ...new Set(
      observations.flatMap((o) => o.members.filter((m) => m.lifecycle === 'on-demand').map((m) => m.id)),
    ),
  ]
  if (!converged)
    return {
      observations,
      onDemandSeen,
      interruption: undefined,
      deadlinePassed: input.clock.now() >= input.deadline,
    }
  const member = observations.at(-1)?.members[0]?.id as string
  const interruption = await interrupt(input, member)
  const again = await convergeLoop(
    input,
    'interruption',
    observations,
    (o) => !o.members.some((m) => m.id === member),
  )
  return { observations, onDemandSeen, interruption, deadlinePassed: !again }
}
