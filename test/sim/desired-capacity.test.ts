import { describe, expect, it } from 'vitest'
import { ownerSetsDesired } from '../../tools/sim/asg.ts'
import { BOOT_SECONDS } from '../../tools/sim/constants.ts'
import { warn } from '../../tools/sim/interruptions.ts'
import type { SimInstance } from '../../tools/sim/state.ts'
import { group, launchSpotFor, rawScenario, type TestWorld, testWorld } from './support.ts'

type Cloud = ReturnType<TestWorld['cloud']>

const BOOT_MS = BOOT_SECONDS * 1000

describe('a simulated group keeps its desired capacity', () => {
  it('starts at desired capacity with on-demand instances of its type spread over the zones', () => {
    const sim = testWorld(rawScenario([group('web', { desired: 4, instanceType: 'c5.xlarge' })]))
    const members = sim.members('web', 'InService')
    expect(members).toHaveLength(4)
    expect(
      members.every((i) => i.lifecycle === 'on-demand' && i.type === 'c5.xlarge' && i.state === 'running'),
    ).toBe(true)
    expect(members.map((i) => i.zone)).toEqual(['us-east-1a', 'us-east-1b', 'us-east-1d', 'us-east-1a'])
  })

  it.each([
    [
      'DetachInstances without decrement',
      (id: string, cloud: Cloud) => cloud.detachInstances('web', [id], false),
    ],
    [
      'TerminateInstanceInAutoScalingGroup without decrement',
      (id: string, cloud: Cloud) => cloud.terminateInGroup(id, false),
    ],
    ['TerminateInstances on a member', (id: string, cloud: Cloud) => cloud.terminateInstances([id])],
  ])('launches an on-demand instance of the group type in the same zone after %s', async (_, act) => {
    const sim = testWorld(rawScenario([group('web', { desired: 3 })]))
    const [leaving] = sim.members('web')
    await act(leaving?.id ?? '', sim.cloud())
    const pending = sim.members('web', 'Pending')
    expect(pending).toHaveLength(1)
    expect(pending[0]).toMatchObject({
      lifecycle: 'on-demand',
      type: 'm5.large',
      zone: leaving?.zone,
      state: 'pending',
    })
    expect(sim.group('web').desiredCapacity).toBe(3)

    await sim.advance(BOOT_MS)
    expect(sim.members('web', 'InService')).toHaveLength(3)
  })

  it('launches nothing when the instance leaves with a decrement', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3, min: 1 })]))
    const cloud = sim.cloud()
    const [first, second] = sim.members('web')
    await cloud.detachInstances('web', [first?.id ?? ''], true)
    await cloud.terminateInGroup(second?.id ?? '', true)
    await sim.advance(BOOT_MS + 60_000)
    expect(sim.group('web').desiredCapacity).toBe(1)
    expect(sim.members('web')).toHaveLength(1)
  })

  it('keeps desired and in-service equal after attaching a running instance', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, max: 3 })]))
    const cloud = sim.cloud()
    const launched = await launchSpotFor(cloud, 'web', 'm5.large', 'us-east-1b')
    await sim.advance(BOOT_MS)
    await cloud.attachInstances('web', [launched.ok ? launched.instanceId : ''])
    expect(sim.group('web').desiredCapacity).toBe(3)
    expect(sim.members('web', 'InService')).toHaveLength(3)
  })

  it('scales in from the zone with the most instances and never takes a member protected from scale-in', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 6, max: 6, protectedFromScaleIn: 2 })]))
    const protectedIds = sim
      .members('web')
      .slice(0, 2)
      .map((i) => i.id)
    ownerSetsDesired(sim.world, sim.region, sim.group('web'), 2)
    await sim.advance(60_000)
    const left = sim.members('web', 'InService').map((i) => i.id)
    expect(left.sort()).toEqual([...protectedIds].sort())
  })

  it('writes a scaling activity in Auto Scaling’s words for each change of desired capacity, and none for the value it has', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, max: 6 })]))
    const before = new Date(sim.world.clock.now)
    ownerSetsDesired(sim.world, sim.region, sim.group('web'), 3)
    ownerSetsDesired(sim.world, sim.region, sim.group('web'), 3)
    const activities = await sim.cloud().scalingActivities('web', before)
    expect(activities).toEqual([
      {
        startTime: before,
        cause: `At ${before.toISOString().replace('.000Z', 'Z')} a user request explicitly set group desired capacity changing the desired capacity from 2 to 3.`,
      },
    ])
    expect(await sim.cloud().scalingActivities('web', new Date(before.getTime() + 1))).toEqual([])
  })

  it('scales out by launching on-demand instances into the zones with the fewest', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, max: 6 })]))
    ownerSetsDesired(sim.world, sim.region, sim.group('web'), 3)
    await sim.advance(BOOT_MS)
    expect(
      sim
        .members('web', 'InService')
        .map((i) => i.zone)
        .sort(),
    ).toEqual(['us-east-1a', 'us-east-1b', 'us-east-1d'])
    expect(sim.group('web').owner.desiredCapacity).toBe(3)
  })

  it('replaces a member lost to a spot interruption only when EC2 takes it', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2, max: 3 })]))
    const cloud = sim.cloud()
    const launched = await launchSpotFor(cloud, 'web', 'm5.large', 'us-east-1b')
    await sim.advance(BOOT_MS)
    const spotId = launched.ok ? launched.instanceId : ''
    await cloud.attachInstances('web', [spotId])
    warn(sim.world, sim.region, sim.region.instances.get(spotId) as SimInstance)
    await sim.advance(119_000)
    expect(sim.members('web', 'InService')).toHaveLength(3)
    await sim.advance(1_000)
    expect(sim.region.instances.get(spotId)?.state).toBe('shutting-down')
    expect(sim.members('web', 'Pending')).toHaveLength(1)
  })
})
