/**
 * The promises `spotswap verify` checks, as pure functions of what it observed in the account between the
 * handlers' runs and of the writes the handlers made (verify-recorder.ts). Each answers pass or fail with
 * a one-line reason naming the instances concerned.
 */
import type { Lifecycle } from '../../lambdas/core/types.ts'
import type { RecordedWrite } from './verify-recorder.ts'

export interface MemberView {
  readonly id: string
  readonly lifecycle: Lifecycle
  readonly lifecycleState: string
  readonly type: string
  readonly zone: string
  /** EC2's `aws:ec2launchtemplate:id` on a launch: the template it was launched from, as EC2 says. */
  readonly launchTemplateId?: string
}

export type Phase = 'convert' | 'interruption'

/** The group and spotswap's launches for it, as seen once between two handler runs. */
export interface Observation {
  readonly at: Date
  readonly phase: Phase
  readonly desired: number
  readonly members: readonly MemberView[]
  /** A swap record on the group: a swap is under way. */
  readonly swapOpen: boolean
  /** Running or pending spot instances launched for the group (`launched-for-asg`), members or not. */
  readonly launched: readonly MemberView[]
}

export type CheckStatus = 'pass' | 'fail' | 'not-possible' | 'skipped'

export interface VerifyCheck {
  readonly name: string
  readonly status: CheckStatus
  readonly reason: string
}

const inService = (o: Observation): number => o.members.filter((m) => m.lifecycleState === 'InService').length

/** Converged: as many members as at the start, every one a spot instance in service, no swap open. */
export const isConverged = (o: Observation, desiredAtStart: number): boolean =>
  !o.swapOpen &&
  o.desired === desiredAtStart &&
  o.members.length === desiredAtStart &&
  o.members.every((m) => m.lifecycle === 'spot' && m.lifecycleState === 'InService')

const last = (observations: readonly Observation[], phase: Phase) =>
  observations.filter((o) => o.phase === phase).at(-1)

export const convergesCheck = (
  observations: readonly Observation[],
  desiredAtStart: number,
  onDemandAtStart: readonly string[],
): VerifyCheck => {
  const end = last(observations, 'convert')
  const name = 'converges'
  if (end === undefined) return { name, status: 'fail', reason: 'the group was never observed' }
  const kept = onDemandAtStart.filter((id) => end.members.some((m) => m.id === id))
  if (isConverged(end, desiredAtStart) && kept.length === 0)
    return {
      name,
      status: 'pass',
      reason: `${desiredAtStart} spot members in service (${end.members.map((m) => `${m.id} ${m.type}`).join(', ')}); the on-demand ones retired: ${onDemandAtStart.join(', ')}`,
    }
  const members = end.members.map((m) => `${m.id} ${m.lifecycle} ${m.lifecycleState}`).join(', ')
  return {
    name,
    status: 'fail',
    reason: `not converged by the deadline: desired ${end.desired}, members ${members || 'none'}${end.swapOpen ? ', a swap still open' : ''}${kept.length > 0 ? `; still on-demand: ${kept.join(', ')}` : ''}`,
  }
}

/** While converting, never fewer members in service than the group wanted at the start. */
export const servesCheck = (observations: readonly Observation[], desiredAtStart: number): VerifyCheck => {
  const converting = observations.filter((o) => o.phase === 'convert')
  const name = 'serves-throughout'
  // The first look is before any member has booted: serving is counted once the group first served.
  const from = converting.findIndex((o) => inService(o) >= desiredAtStart)
  if (from === -1)
    return { name, status: 'fail', reason: `the group never had ${desiredAtStart} members in service` }
  const watched = converting.slice(from)
  const lowest = watched.reduce((low, o) => (inService(o) < inService(low) ? o : low))
  if (inService(lowest) >= desiredAtStart)
    return {
      name,
      status: 'pass',
      reason: `at least ${desiredAtStart} members in service at each of ${watched.length} looks while converting`,
    }
  return {
    name,
    status: 'fail',
    reason: `${inService(lowest)} of ${desiredAtStart} members in service at ${lowest.at.toISOString()}`,
  }
}

/** Members leave through Auto Scaling: no EC2 TerminateInstances ever named an instance in a group. */
export const leavesThroughAutoScalingCheck = (writes: readonly RecordedWrite[]): VerifyCheck => {
  const name = 'leaves-through-auto-scaling'
  const byEc2 = writes.flatMap((w) => (w.method === 'terminateInstances' ? (w.members ?? []) : []))
  if (byEc2.length > 0)
    return {
      name,
      status: 'fail',
      reason: `group members terminated by EC2 TerminateInstances: ${byEc2.join(', ')}`,
    }
  const throughGroup = writes.filter((w) => w.method === 'terminateInGroup').map((w) => String(w.args[0]))
  if (throughGroup.length === 0)
    return { name, status: 'fail', reason: 'no member left the group: nothing to check it by' }
  const others = writes.filter((w) => w.method === 'terminateInstances').length
  return {
    name,
    status: 'pass',
    reason: `${throughGroup.length} member(s) left by TerminateInstanceInAutoScalingGroup (${throughGroup.join(', ')}); ${others} EC2 TerminateInstances call(s), none on a member`,
  }
}

/** No spot instance launched for the group is left running outside it once it has converged. */
export const cleansLaunchesCheck = (observations: readonly Observation[]): VerifyCheck => {
  const name = 'cleans-up-launches'
  const end = observations.at(-1)
  if (end === undefined) return { name, status: 'fail', reason: 'the group was never observed' }
  const outside = end.launched.filter((l) => !end.members.some((m) => m.id === l.id))
  if (outside.length === 0)
    return {
      name,
      status: 'pass',
      reason: `every running launch for the group is a member (${end.launched.length})`,
    }
  return {
    name,
    status: 'fail',
    reason: `launched for the group but outside it: ${outside.map((l) => `${l.id} ${l.lifecycleState}`).join(', ')}`,
  }
}

export interface InterruptionOutcome {
  readonly instanceId: string
  /** What the interruption handler answered: its outcome and reason. */
  readonly outcome: string
}

/** The warned member left and the group was whole again, all spot, by the deadline. */
export const interruptionCheck = (
  observations: readonly Observation[],
  desiredAtStart: number,
  outcome: InterruptionOutcome | undefined,
): VerifyCheck => {
  const name = 'interruption'
  if (outcome === undefined)
    return { name, status: 'skipped', reason: 'not reached: the group did not converge' }
  const end = last(observations, 'interruption')
  const warnedStays = end?.members.some((m) => m.id === outcome.instanceId) ?? true
  if (end !== undefined && !warnedStays && isConverged(end, desiredAtStart))
    return {
      name,
      status: 'pass',
      reason: `a synthetic EC2 Spot Instance Interruption Warning for ${outcome.instanceId} (${outcome.outcome}): it left through Auto Scaling, the group was backfilled and converted to spot again`,
    }
  return {
    name,
    status: 'fail',
    reason: `after the warning for ${outcome.instanceId} (${outcome.outcome}): ${warnedStays ? 'it is still a member' : 'the group did not converge again'}`,
  }
}
