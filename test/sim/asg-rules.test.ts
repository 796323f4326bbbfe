import { describe, expect, it } from 'vitest'
import { errorCode, isNotFound, isTransient } from '../../lambdas/aws/errors.ts'
import { latestFailedLaunch } from '../../lambdas/core/group/launch-activities.ts'
import { readActivities } from '../../lambdas/core/group/scaling-activities.ts'
import { ownerSetsDesired } from '../../tools/sim/asg.ts'
import { BOOT_SECONDS, TERMINATION_HOOK_SECONDS } from '../../tools/sim/constants.ts'
import { cycleSoon } from '../../tools/sim/ecs-scheduler.ts'
import { rejection } from '../builders/errors.ts'
import { group, launchSpotFor, rawScenario, testWorld } from './support.ts'

const BOOT_MS = BOOT_SECONDS * 1000

/** A running spot instance launched for `web`, not attached yet. */
const runningSpot = async (sim: ReturnType<typeof testWorld>, zone = 'us-east-1b') => {
  const launched = await launchSpotFor(
    sim.cloud(),
    'web',
    'm5.large',
    zone,
    `token-${zone}-${sim.world.clock.now}`,
  )
  await sim.advance(BOOT_MS)
  if (!launched.ok) throw new Error('launch failed')
  return launched.instanceId
}

describe('Auto Scaling rules in the simulator', () => {
  it('refuses AttachInstances beyond MaxSize with a ValidationError, as AWS does, and attaches nothing', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3, max: 3 })]))
    const spot = await runningSpot(sim)
    const error = await rejection(sim.cloud().attachInstances('web', [spot]))
    expect(errorCode(error)).toBe('ValidationError')
    expect(error).toMatchObject({ $metadata: { httpStatusCode: 400 } })
    expect(isNotFound(error)).toBe(false)
    expect(sim.group('web').desiredCapacity).toBe(3)
    expect(sim.region.groupOf(spot)).toBeUndefined()
  })

  it('attaches once MaxSize is raised', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3, max: 3 })]))
    const spot = await runningSpot(sim)
    const cloud = sim.cloud()
    await cloud.setMaxSize('web', 4)
    await cloud.attachInstances('web', [spot])
    expect(sim.group('web')).toMatchObject({ maxSize: 4, desiredCapacity: 4 })
  })

  it('lowers desired capacity to a MaxSize set below it, and scales in, as AWS does', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3, max: 3 })]))
    const spot = await runningSpot(sim)
    const cloud = sim.cloud()
    await cloud.setMaxSize('web', 4)
    await cloud.attachInstances('web', [spot])
    await cloud.setMaxSize('web', 2)
    expect(sim.group('web')).toMatchObject({ maxSize: 2, desiredCapacity: 2 })
    expect(sim.group('web').activities.at(-1)?.cause).toMatch(
      /update of AutoScalingGroup constraints to min: 0, max: 2, desired: 2 changing the desired capacity from 4 to 2\./,
    )
    await sim.advance(BOOT_MS)
    expect(sim.members('web', 'InService')).toHaveLength(2)
  })

  it('refuses a MaxSize below MinSize with the message AWS gives, and changes nothing', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3, min: 2, max: 3 })]))
    const error = await rejection(sim.cloud().setMaxSize('web', 1))
    expect(errorCode(error)).toBe('ValidationError')
    expect((error as Error).message).toBe('Max bound, 1, must be greater than or equal to min bound, 2')
    expect(sim.group('web')).toMatchObject({ maxSize: 3, desiredCapacity: 3 })
  })

  it('refuses to attach an instance that is still pending', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 1, max: 3 })]))
    const cloud = sim.cloud()
    const launched = await launchSpotFor(cloud, 'web', 'm5.large', 'us-east-1b')
    const error = await rejection(cloud.attachInstances('web', [launched.ok ? launched.instanceId : '']))
    expect(errorCode(error)).toBe('ValidationError')
  })

  it('refuses a decrement below MinSize with the message AWS gives', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, min: 2 })]))
    const [member] = sim.members('web')
    const error = await rejection(sim.cloud().terminateInGroup(member?.id ?? '', true))
    expect(errorCode(error)).toBe('ValidationError')
    expect((error as Error).message).toMatch(/desiredSize equals minSize \(2\)/)
    expect(sim.members('web', 'InService')).toHaveLength(2)
  })

  it('reports acting on an instance outside the group as "not found", as the AWS adapter does, for the caller to judge', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 1 }), group('api', { desired: 1 })]))
    const [apiMember] = sim.members('api')
    const error = await rejection(sim.cloud().detachInstances('web', [apiMember?.id ?? ''], false))
    expect(isNotFound(error)).toBe(true)
    // TerminateInstanceInAutoScalingGroup on a non-member: no decrement happened, so it is not "done".
    expect(isNotFound(await rejection(sim.cloud().terminateInGroup('i-00000000000000fff', true)))).toBe(true)
  })

  it('holds a terminating instance in Terminating:Wait while its termination hook runs, replacing it meanwhile', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, terminationHook: true })]))
    const [member] = sim.members('web')
    const id = member?.id ?? ''
    await sim.cloud().terminateInGroup(id, false)
    const hookDone = sim.world.clock.now + TERMINATION_HOOK_SECONDS * 1000
    expect(sim.group('web').members.get(id)?.lifecycleState).toBe('Terminating:Wait')
    expect(sim.region.instances.get(id)?.state).toBe('running')
    expect(sim.members('web', 'Pending')).toHaveLength(1)
    expect(await sim.cloud().lifecycleHooks('web')).toEqual([
      { name: 'web-drain', transition: 'autoscaling:EC2_INSTANCE_TERMINATING' },
    ])

    await sim.advance(hookDone - 1 - sim.world.clock.now)
    expect(sim.region.instances.get(id)?.state).toBe('running')
    await sim.advance(1)
    expect(sim.region.instances.get(id)?.state).toBe('shutting-down')
    await sim.advance(60_000)
    expect(sim.group('web').members.has(id)).toBe(false)
  })

  it('refuses TerminateInstances on an instance with API termination protection, but Auto Scaling may still terminate it', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, terminationProtected: 1 })]))
    const [guarded] = sim.members('web')
    const id = guarded?.id ?? ''
    const cloud = sim.cloud()
    expect(await cloud.terminationProtected(sim.members('web').map((i) => i.id))).toEqual(new Set([id]))
    const error = await rejection(cloud.terminateInstances([id]))
    expect(errorCode(error)).toBe('OperationNotPermitted')
    expect(isTransient(error)).toBe(false)
    expect(sim.region.instances.get(id)?.state).toBe('running')
    await cloud.terminateInGroup(id, false)
    expect(sim.region.instances.get(id)?.state).toBe('shutting-down')
  })

  it('keeps bookkeeping tags written through the API off the instances the group launches', async () => {
    const sim = testWorld(
      rawScenario([group('web', { desired: 1, tags: { 'spot-enabled': 'true', team: 'web' } })]),
    )
    const cloud = sim.cloud()
    await cloud.tagGroup('web', { 'spotswap:original-max-size': '6' })
    const [member] = sim.members('web')
    await cloud.detachInstances('web', [member?.id ?? ''], false)
    const [launched] = sim.members('web', 'Pending')
    expect(launched?.tags).toEqual({
      'spot-enabled': 'true',
      team: 'web',
      'aws:autoscaling:groupName': 'web',
    })
    const [seen] = await cloud.describeGroups({ tagKey: 'spot-enabled', tagValues: ['true'] })
    // A marker: the adapter wrote it signed, and describeGroups reads it as written.
    expect(seen?.tags['spotswap:original-max-size']).toMatch(/^6 mac=[A-Za-z0-9_-]{43}$/)
    expect(seen?.propagatedTags).toEqual({ 'spot-enabled': 'true', team: 'web' })
  })

  it('scales in around members protected from scale-in, but protection starts only at InService', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3, max: 6, protectedFromScaleIn: 3 })]))
    const cloud = sim.cloud()
    await cloud.setDesiredCapacity('web', 1)
    // Every candidate is protected: desired drops, the group stays above it.
    expect(sim.group('web').desiredCapacity).toBe(1)
    expect(sim.members('web', 'InService')).toHaveLength(3)
    await cloud.setDesiredCapacity('web', 4)
    const [launching] = sim.members('web', 'Pending')
    const member = sim.group('web').members.get(launching?.id ?? '')
    if (member !== undefined) member.protectedFromScaleIn = true
    await cloud.setDesiredCapacity('web', 3)
    expect(sim.region.instances.get(launching?.id ?? '')?.state).toBe('shutting-down')
    expect(sim.members('web', 'InService')).toHaveLength(3)
  })

  it('writes a Failed launch activity with its StatusMessage when Auto Scaling cannot launch', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, max: 4 })]))
    await sim.advance(BOOT_MS)
    sim.group('web').ownLaunchesFail = true
    const cloud = sim.cloud()
    await cloud.setDesiredCapacity('web', 3)
    const activities = await cloud.latestScalingActivities('web', 10)
    expect(latestFailedLaunch(activities)).toEqual({
      statusCode: 'Failed',
      statusMessage: expect.stringMatching(
        /^We currently do not have sufficient m5\.large capacity in the Availability Zone you requested \(us-east-1.\)\..* Launching EC2 instance failed\.$/,
      ),
      at: expect.any(Date),
    })
    // The raise is the one change of desired capacity: the failed launch's cause is an instance move.
    expect(readActivities(activities, new Date(0))).toMatchObject({
      changes: [{ from: 2, to: 3 }],
      unclassified: 0,
    })
  })

  it('scales in a group left above desired once ECS lifts a member’s protection', async () => {
    const sim = testWorld(
      rawScenario([
        group('web', {
          desired: 4,
          max: 6,
          ecs: { managedDraining: false, slotsPerInstance: 1, services: [{ name: 'api', desiredCount: 4 }] },
        }),
      ]),
    )
    ownerSetsDesired(sim.world, sim.region, sim.group('web'), 3)
    // Every member runs a task: ECS protects them all, and the group stays above desired.
    expect(sim.members('web', 'InService')).toHaveLength(4)
    const cluster = sim.region.ecsClusters.get('web')
    const api = cluster?.services.find((s) => s.name === 'api')
    if (cluster === undefined || api === undefined) throw new Error('no cluster')
    api.desiredCount = 3
    cycleSoon(sim.world, sim.region, cluster)
    await sim.advance(10 * 60_000)
    expect(sim.members('web', 'InService')).toHaveLength(3)
  })
})
