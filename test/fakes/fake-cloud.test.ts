import { describe, expect, it } from 'vitest'
import { errorCode } from '../../lambdas/aws/errors.ts'
import { rejection } from '../builders/errors.ts'
import { FakeCloud } from './fake-cloud.ts'

describe('FakeCloud setMaxSize (UpdateAutoScalingGroup with MaxSize alone)', () => {
  it('lowers desired capacity to a MaxSize set below it and terminates members, as AWS does', async () => {
    const cloud = new FakeCloud()
    cloud.addGroup('web', { maxSize: 4 })
    const members = [1, 2, 3, 4].map(() => cloud.addInstance({ group: 'web' }))
    await cloud.setMaxSize('web', 2)
    const group = cloud.group('web')
    expect(group).toMatchObject({ maxSize: 2, desiredCapacity: 2 })
    expect(group.members.size).toBe(2)
    expect(members.filter((m) => m.state === 'terminated')).toHaveLength(2)
  })

  it('keeps desired capacity when the new MaxSize is not below it', async () => {
    const cloud = new FakeCloud()
    cloud.addGroup('web', { maxSize: 4 })
    for (const _ of [1, 2]) cloud.addInstance({ group: 'web' })
    await cloud.setMaxSize('web', 2)
    expect(cloud.group('web')).toMatchObject({ maxSize: 2, desiredCapacity: 2 })
    expect(cloud.group('web').members.size).toBe(2)
  })

  it('refuses a MaxSize below MinSize with the message AWS gives, and changes nothing', async () => {
    const cloud = new FakeCloud()
    cloud.addGroup('web', { minSize: 2, maxSize: 4 })
    for (const _ of [1, 2, 3]) cloud.addInstance({ group: 'web' })
    const error = await rejection(cloud.setMaxSize('web', 1))
    expect(errorCode(error)).toBe('ValidationError')
    expect((error as Error).message).toBe('Max bound, 1, must be greater than or equal to min bound, 2')
    expect(cloud.group('web')).toMatchObject({ maxSize: 4, desiredCapacity: 3 })
  })
})

describe('FakeCloud setDesiredCapacity when Auto Scaling cannot launch', () => {
  it('keeps the raised desired capacity with no new member, and lowering it again terminates no one', async () => {
    const cloud = new FakeCloud()
    cloud.addGroup('web', { maxSize: 4 })
    const members = [1, 2].map(() => cloud.addInstance({ group: 'web' }))
    cloud.launchesFail.add('web')
    await cloud.setDesiredCapacity('web', 3)
    expect(cloud.group('web')).toMatchObject({ desiredCapacity: 3 })
    expect(cloud.group('web').members.size).toBe(2)
    await cloud.setDesiredCapacity('web', 2)
    expect(cloud.group('web').members.size).toBe(2)
    expect(members.filter((m) => m.state === 'terminated')).toEqual([])
  })
})

describe('FakeCloud scale-in (SetDesiredCapacity, MaxSize below desired)', () => {
  const terminated = (cloud: FakeCloud) =>
    [...cloud.instances.values()].filter((i) => i.state === 'terminated').map((i) => i.id)

  /** Two InService members, both protected from scale-in, and desired capacity lowered to 1. */
  const bothProtectedAtOne = async () => {
    const cloud = new FakeCloud()
    cloud.addGroup('web', { maxSize: 4 })
    const members = [1, 2].map(() => cloud.addInstance({ group: 'web' }).id)
    for (const id of members) cloud.scaleInProtected.add(id)
    await cloud.setDesiredCapacity('web', 1)
    return { cloud, members }
  }

  it('never takes a member protected from scale-in: desired drops, the group stays above it', async () => {
    const { cloud } = await bothProtectedAtOne()
    expect(cloud.group('web').desiredCapacity).toBe(1)
    expect(cloud.group('web').members.size).toBe(2)
    expect(terminated(cloud)).toEqual([])
  })

  it('takes the unprotected member instead of a protected one', async () => {
    const cloud = new FakeCloud()
    cloud.addGroup('web', { maxSize: 4 })
    const [older, newer] = [1, 2].map(() => cloud.addInstance({ group: 'web' }))
    cloud.scaleInProtected.add(newer?.id ?? '')
    await cloud.setMaxSize('web', 1)
    expect(terminated(cloud)).toEqual([older?.id])
    expect([...cloud.group('web').members.keys()]).toEqual([newer?.id])
  })

  it('scales in once the protection is removed', async () => {
    const { cloud, members } = await bothProtectedAtOne()
    cloud.unprotect(members[0] ?? '')
    expect(terminated(cloud)).toEqual([members[0]])
    expect(cloud.group('web').members.size).toBe(1)
  })

  it('may take a launching member (protection starts at InService); Standby counts for nothing', async () => {
    const cloud = new FakeCloud()
    cloud.addGroup('web', { maxSize: 4 })
    const standby = cloud.addInstance({ group: 'web', lifecycleState: 'Standby' })
    const serving = cloud.addInstance({ group: 'web' })
    const launching = cloud.addInstance({ group: 'web', lifecycleState: 'Pending:Wait' })
    for (const m of [standby, serving, launching]) cloud.scaleInProtected.add(m.id)
    // Entering Standby took its unit out of desired capacity.
    cloud.group('web').desiredCapacity = 2
    await cloud.setDesiredCapacity('web', 1)
    expect(terminated(cloud)).toEqual([launching.id])
    expect([...cloud.group('web').members]).toEqual([
      [standby.id, 'Standby'],
      [serving.id, 'InService'],
    ])
  })

  it('holds the member it takes in Terminating:Wait while a termination hook runs', async () => {
    const cloud = new FakeCloud()
    cloud.addGroup('web', {
      maxSize: 4,
      hooks: [{ name: 'drain', transition: 'autoscaling:EC2_INSTANCE_TERMINATING' }],
    })
    const [a, b] = [1, 2].map(() => cloud.addInstance({ group: 'web' }))
    await cloud.setDesiredCapacity('web', 1)
    expect([...cloud.group('web').members]).toEqual([
      [a?.id, 'InService'],
      [b?.id, 'Terminating:Wait'],
    ])
  })
})

describe('FakeCloud ECS tasks (ListTasks, DescribeTasks)', () => {
  const CLUSTER = 'arn:aws:ecs:us-east-1:123456789012:cluster/web'

  const groupsOn = async (cloud: FakeCloud, instanceId: string) => {
    const arn = cloud.containerInstanceOf(instanceId)?.arn
    return (await cloud.ecsClusterTasks(CLUSTER))
      .filter((t) => t.containerInstanceArn === arn)
      .map((t) => t.group)
  }

  it('lists the cluster’s tasks with their container instance; a drain moves the service’s, never a standalone one', async () => {
    const cloud = new FakeCloud('us-east-1')
    cloud.registerContainerInstance(CLUSTER, 'i-1', 2)
    cloud.registerContainerInstance(CLUSTER, 'i-2', 1)
    cloud.runStandaloneTask('i-1', 'nightly')
    expect(await groupsOn(cloud, 'i-1')).toEqual(['service:web', 'service:web', 'family:nightly'])
    expect(await groupsOn(cloud, 'i-2')).toEqual(['service:web'])
    expect(cloud.containerInstanceOf('i-1')?.runningTasksCount).toBe(3)
    cloud.finishDrain('i-1')
    expect(await groupsOn(cloud, 'i-1')).toEqual(['family:nightly'])
    // ECS keeps protecting it while the standalone task runs.
    expect(cloud.scaleInProtected.has('i-1')).toBe(true)
    cloud.updateTasksOf('i-1', () => [])
    expect(cloud.scaleInProtected.has('i-1')).toBe(false)
  })

  it('refuses a cluster ECS does not hold', async () => {
    const cloud = new FakeCloud('us-east-1')
    await expect(cloud.ecsClusterTasks(`${CLUSTER}-unknown`)).rejects.toThrow(/Cluster not found/)
  })
})

describe('FakeCloud terminateInGroup behind a load balancer (connection draining)', () => {
  const TG = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/web/0123456789abcdef'
  const KEY = `target-group:${TG}`
  const behind = () => {
    const cloud = new FakeCloud()
    let now = new Date('2026-01-01T00:00:00Z')
    cloud.now = () => now
    cloud.addGroup('web', {
      maxSize: 4,
      trafficSources: { targetGroupArns: [TG], classicLoadBalancerNames: [], unreadable: [] },
    })
    const [served, other] = [1, 2].map(() => cloud.addInstance({ group: 'web' }))
    const advance = (seconds: number) => {
      now = new Date(now.getTime() + seconds * 1000)
    }
    return { cloud, served: served?.id ?? '', other: other?.id ?? '', advance }
  }

  it('keeps a member that served Terminating and running for the deregistration delay, then terminates it', async () => {
    const { cloud, served, advance } = behind()
    await cloud.terminateInGroup(served, true)
    expect(cloud.group('web').members.get(served)).toBe('Terminating')
    expect(cloud.group('web').desiredCapacity).toBe(1)
    expect(cloud.instances.get(served)?.state).toBe('running')
    expect(cloud.targetStates.get(served)?.get(KEY)?.state).toBe('draining')
    expect(cloud.staying('web')).not.toContain(served)
    advance(299)
    await cloud.describeGroups({ tagKey: undefined, tagValues: [] })
    expect(cloud.group('web').members.has(served)).toBe(true)
    advance(1)
    await cloud.describeGroups({ tagKey: undefined, tagValues: [] })
    expect(cloud.group('web').members.has(served)).toBe(false)
    expect(cloud.instances.get(served)?.state).toBe('terminated')
  })

  it('takes the source’s own delay, and none for a member that never served (no connections)', async () => {
    const { cloud, served, other, advance } = behind()
    cloud.deregistrationDelays.set(KEY, 30)
    cloud.setTargetState(other, { state: 'initial', reason: 'Elb.InitialHealthChecking' })
    await cloud.terminateInGroup(other, true)
    expect(cloud.group('web').members.has(other)).toBe(false)
    expect(cloud.instances.get(other)?.state).toBe('terminated')
    await cloud.terminateInGroup(served, true)
    advance(30)
    await cloud.describeInstances([served], { includeTerminated: true })
    expect(cloud.group('web').members.has(served)).toBe(false)
  })

  it('lets EC2 take a draining member: it leaves the group with its instance', async () => {
    const { cloud, served } = behind()
    await cloud.terminateInGroup(served, true)
    await cloud.terminateInstances([served])
    expect(cloud.group('web').members.has(served)).toBe(false)
  })
})
