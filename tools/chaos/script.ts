/**
 * Plays a chaos case's script against the simulation: the fault hooks every API request passes
 * (random errors, error storms, crashes at scripted requests, random crashes), and, before time starts,
 * replacer runs asked for while another is in flight, EventBridge's duplicated and late deliveries, and
 * the owner's changes.
 * Random choices come from streams seeded by the case, so a case replays exactly.
 */
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import {
  TAG_INTERRUPTION_WARNED,
  TAG_LAUNCH_TEMPLATE_ID,
  TAG_LAUNCHED_BY,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REPLACED_TYPE,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
} from '../../lambdas/core/constants.ts'
import { detachInstances, ownerSetsMaxSize } from '../sim/asg-api.ts'
import { Priority } from '../sim/clock.ts'
import { launchInstance } from '../sim/ec2.ts'
import { simAwsError, TRANSIENT_ERRORS } from '../sim/errors.ts'
import type { FaultDecision, FaultHooks } from '../sim/faults.ts'
import { rememberPlanted } from '../sim/forged-marker-invariant.ts'
import type { Invocations } from '../sim/invocations.ts'
import { SimMarkerKey } from '../sim/marker-key.ts'
import { createRng } from '../sim/rng.ts'
import { omitLaunchTemplateTag } from '../sim/sdk/ec2-launches.ts'
import { groupArn } from '../sim/sdk/shapes.ts'
import type { SimGroup, SimRegion } from '../sim/state.ts'
import type { SimEvent, World } from '../sim/world.ts'
import type { ChaosCase, EventChaos, OwnerAction, QueuedRuns } from './case.ts'

const NONE: FaultDecision = { kind: 'none' }

const transientError = (service: string, pick: number): FaultDecision => {
  const choices = TRANSIENT_ERRORS[service] ?? TRANSIENT_ERRORS.ec2 ?? []
  const [code, status, message] = choices[pick % choices.length] ?? [
    'InternalError',
    500,
    'An internal error',
  ]
  return { kind: 'error', error: simAwsError(code, status, message) }
}

/** The fault hooks of a case; `now` tells them the simulated time (for storms). */
export const chaosFaults = (chaos: ChaosCase, now: () => number, startMs: number): FaultHooks => {
  const rng = createRng(`chaos-faults:${chaos.seed}`)
  const seen = new Map<string, number>()
  const seenByGroup = new Map<string, number>()
  const { errorRate, crashRate, crashes, storms, refusals = [] } = chaos.faults
  return {
    decide: ({ operation, group }) => {
      const occurrence = (seen.get(operation) ?? 0) + 1
      seen.set(operation, occurrence)
      const key = `${operation} ${group ?? ''}`
      const ofGroup = (seenByGroup.get(key) ?? 0) + 1
      seenByGroup.set(key, ofGroup)
      const crash = crashes.find((c) => c.operation === operation && c.occurrence === occurrence)
      if (crash !== undefined) return { kind: crash.when === 'before' ? 'crash-before' : 'crash-after' }
      if (refusals.some((r) => r.operation === operation && r.group === group && r.occurrence === ofGroup))
        return { kind: 'error', error: simAwsError('ValidationError', 400, 'chaos: request refused') }
      if (crashRate > 0 && rng.chance(crashRate))
        return { kind: rng.chance(0.5) ? 'crash-before' : 'crash-after' }
      const service = operation.split(':')[0] ?? 'ec2'
      const minute = (now() - startMs) / 60_000
      const storm = storms.find((s) => s.service === service && minute >= s.fromMinute && minute < s.toMinute)
      const rate = Math.max(errorRate, storm?.rate ?? 0)
      if (rate > 0 && rng.chance(rate)) return transientError(service, rng.int(3))
      return NONE
    },
  }
}

/**
 * Sends the second run `delayMs` of simulated time into the first (or when the first ends, if sooner);
 * its lane's message group holds it until that lane's first run is done.
 */
const queueBehind = (world: World, invocations: Invocations, run: QueuedRuns): Promise<unknown> => {
  let firstDone = false
  const first = invocations.runReplacer(run.region).finally(() => {
    firstDone = true
  })
  const second = (async () => {
    const startAt = world.clock.now + run.delayMs
    // Each request of the first run moves the clock; yielding lets it make progress meanwhile.
    while (!firstDone && world.clock.now < startAt) await Promise.resolve()
    await invocations.runReplacer(run.region, run.secondGroup)
  })()
  return Promise.all([first, second])
}

/** EventBridge delivers at least once and not in order: some events late, some twice. */
const deliverWithChaos = (world: World, invocations: Invocations, events: EventChaos, seed: number) => {
  const rng = createRng(`chaos-events:${seed}`)
  const deliverAt = (event: SimEvent, delaySeconds: number): void => {
    if (delaySeconds === 0) invocations.deliver(event)
    else
      world.clock.schedule(world.clock.now + delaySeconds * 1000, Priority.external, 'late event', () =>
        invocations.deliver(event),
      )
  }
  const delay = (): number => 1 + rng.int(events.maxDelaySeconds)
  world.onEvent((event) => {
    deliverAt(event, rng.chance(events.delayRate) ? delay() : 0)
    if (rng.chance(events.duplicateRate)) deliverAt(event, rng.chance(0.5) ? 0 : delay())
  })
}

const inService = (group: SimGroup): string[] =>
  [...group.members].filter(([, m]) => m.lifecycleState === 'InService').map(([id]) => id)

/**
 * Someone launches an on-demand instance dressed as spotswap's launch for the group: every tag a launch
 * carries, partner named, from the group's template (so EC2's template tag is the group's too).
 */
const forgeLaunch = (world: World, region: SimRegion, group: SimGroup, partner: string | undefined): void => {
  if (partner === undefined) return
  const instance = launchInstance(world, region, {
    type: group.instanceType,
    zone: region.instances.get(partner)?.zone ?? group.zones[0] ?? '',
    lifecycle: 'on-demand',
    tags: {
      [TAG_LAUNCHED_BY]: 'true',
      [TAG_LAUNCHED_FOR_GROUP]: group.name,
      [TAG_REPLACING_INSTANCE]: partner,
      [TAG_REPLACED_TYPE]: group.instanceType,
      ...(group.launchTemplate?.id === undefined
        ? {}
        : { [TAG_LAUNCH_TEMPLATE_ID]: group.launchTemplate.id }),
    },
    costGroup: undefined,
    origin: 'owner',
  })
  instance.ownerKeeps = true
}

/** The owner detaches a member (a spot one first: spotswap's replacements) and keeps it running. */
const detachMember = (world: World, region: SimRegion, group: SimGroup, pick: number): void => {
  const members = inService(group)
  const spot = members.filter((id) => region.instances.get(id)?.lifecycle === 'spot')
  const from = spot.length > 0 ? spot : members
  const id = from[pick % Math.max(1, from.length)]
  const instance = id === undefined ? undefined : region.instances.get(id)
  if (id === undefined || instance === undefined || group.desiredCapacity <= group.minSize) return
  detachInstances(world, region, group.name, [id], false)
  instance.ownerKeeps = true
}

/** Forged by the age of its time: past the swap deadline at once, or fresh. */
const FORGED_WARNING_AGE_MS = { 'forge-warned-old': 2 * 3_600_000, 'forge-warned-fresh': 0 } as const

/**
 * Someone with ec2:CreateTags marks the group's in-service spot members as warned of their interruption,
 * which EC2 never did: spotswap must act on none of them (invariants 5 and 7 flag any retirement).
 */
const forgeWarning = (world: World, region: SimRegion, group: SimGroup, ageMs: number): void => {
  const at = new Date(world.clock.now - ageMs).toISOString()
  for (const id of inService(group)) {
    const instance = region.instances.get(id)
    if (instance?.lifecycle === 'spot') instance.tags = { ...instance.tags, [TAG_INTERRUPTION_WARNED]: at }
  }
}

type ForgedSwapKind =
  | 'forge-swap-unsigned'
  | 'forge-swap-copied'
  | 'forge-swap-foreign-key'
  | 'replant-expired-swap'

/** No swap of spotswap's has it (they are named by their start time): its records come from a planted one. */
const FORGED_SWAP_ID = 'sforged'

/** Past the life of any swap record spotswap believes (SWAP_RECORD_MAX_AGE_SECONDS), with room to spare. */
const EXPIRED_RECORD_AGE_MS = 7 * 24 * 3_600_000

/** The value a forger writes: the payload bare, or with a MAC that does not verify for this group, or expired. */
const forgedValue = (
  world: World,
  region: SimRegion,
  group: SimGroup,
  kind: ForgedSwapKind,
  payload: string,
) => {
  const signed = (key: SimMarkerKey, target: SimGroup) =>
    key.signedValue(region.name, `group:${groupArn(target)}`, TAG_SWAP, payload)
  switch (kind) {
    case 'forge-swap-unsigned':
      return payload
    case 'forge-swap-copied': {
      // A MAC spotswap made for another group (any group but this one; a name of its own if alone).
      const other = [...region.groups.values()].find((g) => g.name !== group.name) ?? {
        ...group,
        name: `${group.name}-old`,
      }
      return signed(world.markerKey, other)
    }
    case 'forge-swap-foreign-key':
      return signed(new SimMarkerKey('forger'), group)
    case 'replant-expired-swap':
      return signed(world.markerKey, group)
  }
}

/**
 * Someone with autoscaling:CreateOrUpdateTags plants a swap record saying up to two pairs are open on a
 * group that has none (planting over spotswap's own record would delete it, which no MAC can prevent):
 * believed, it would make that many members leave with a decrement (forged-marker-invariant.ts).
 */
const forgeSwapRecord = (world: World, region: SimRegion, group: SimGroup, kind: ForgedSwapKind): void => {
  const pairs = Math.min(2, inService(group).length)
  if (group.tags[TAG_SWAP] !== undefined || pairs === 0) return
  const ageMs = kind === 'replant-expired-swap' ? EXPIRED_RECORD_AGE_MS : 60_000
  const started = new Date(world.clock.now - ageMs).toISOString()
  const payload = `v2 id=${FORGED_SWAP_ID} phase=waiting owner=${group.desiredCapacity - pairs} pairs=${pairs} started=${started}`
  const value = forgedValue(world, region, group, kind, payload)
  group.tags = { ...group.tags, [TAG_SWAP]: value }
  rememberPlanted(region, group.name, value)
}

/** What the owner does: protect a member, or take the group out of (or into) spotswap's hands by its tags. */
const ownerActs = (
  world: World,
  region: SimRegion,
  action: OwnerAction,
  filterKeys: readonly string[],
): void => {
  const group = region.groups.get(action.group)
  if (group === undefined) return
  const members = inService(group)
  const id = members[action.member % Math.max(1, members.length)]
  switch (action.kind) {
    case 'forge-launch':
      forgeLaunch(world, region, group, id)
      break
    case 'detach-member':
      detachMember(world, region, group, action.member)
      break
    case 'forge-warned-old':
    case 'forge-warned-fresh':
      forgeWarning(world, region, group, FORGED_WARNING_AGE_MS[action.kind])
      break
    case 'untagged-launches':
      omitLaunchTemplateTag(region, group.name)
      break
    case 'forge-swap-unsigned':
    case 'forge-swap-copied':
    case 'forge-swap-foreign-key':
    case 'replant-expired-swap':
      forgeSwapRecord(world, region, group, action.kind)
      break
    case 'protect-from-scale-in': {
      const member = id === undefined ? undefined : group.members.get(id)
      if (member !== undefined) member.protectedFromScaleIn = true
      break
    }
    case 'protect-from-termination': {
      // EC2 refuses it on a spot instance: "You can't enable termination protection for Spot Instances"
      // (ModifyInstanceAttribute, DisableApiTermination; https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ModifyInstanceAttribute.html).
      const instance = id === undefined ? undefined : region.instances.get(id)
      if (instance !== undefined && instance.lifecycle !== 'spot') instance.terminationProtected = true
      break
    }
    case 'raise-max-size':
      ownerSetsMaxSize(world, region, group.name, group.owner.maxSize + (action.by ?? 1))
      break
    case 'lower-max-size':
      ownerSetsMaxSize(
        world,
        region,
        group.name,
        Math.max(group.minSize, group.owner.maxSize - (action.by ?? 1)),
      )
      break
    case 'opt-out':
    case 'opt-in': {
      const value = action.kind === 'opt-out' ? 'false' : 'true'
      group.tags = { ...group.tags, ...Object.fromEntries(filterKeys.map((key) => [key, value])) }
      break
    }
  }
  region.touch(group)
}

/** Schedules the case's races and owner actions, and routes events through EventBridge's misbehaviour. */
export const chaosPrepare =
  (chaos: ChaosCase) =>
  (world: World, invocations: Invocations): void => {
    for (const run of chaos.queuedRuns)
      world.clock.schedule(run.atMs, Priority.invocation, 'queued replacer runs', () =>
        queueBehind(world, invocations, run).then(() => undefined),
      )
    deliverWithChaos(world, invocations, chaos.events, chaos.seed)
    const env = (chaos.scenario.env ?? {}) as Record<string, string>
    const filterKeys = parseGlobalConfig(env).config.tagFilters.map((f) => f.key)
    for (const action of chaos.owner)
      world.clock.schedule(action.atMs, Priority.external, `owner: ${action.kind}`, () =>
        ownerActs(world, world.region(action.region), action, filterKeys),
      )
  }
