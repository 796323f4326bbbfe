import { describe, expect, it } from 'vitest'
import { leavesThroughAutoScalingCheck } from '../../tools/cli/verify-checks.ts'
import { type RecordedWrite, recordWrites } from '../../tools/cli/verify-recorder.ts'
import { FakeCloud } from '../fakes/fake-cloud.ts'

describe('recordWrites', () => {
  const world = () => {
    const cloud = new FakeCloud('us-east-1')
    cloud.addGroup('web')
    const member = cloud.addInstance({ group: 'web', lifecycle: 'spot' })
    const stray = cloud.addInstance({ lifecycle: 'spot', tags: { 'launched-for-asg': 'web' } })
    const writes: RecordedWrite[] = []
    return { cloud, member, stray, writes, recorded: recordWrites(cloud, writes) }
  }

  it('records each write with its arguments and still makes it', async () => {
    const { cloud, member, writes, recorded } = world()
    await recorded.terminateInGroup(member.id, true)
    expect(writes).toEqual([{ method: 'terminateInGroup', args: [member.id, true] }])
    expect(cloud.mutations).toEqual([{ method: 'terminateInGroup', args: [member.id, true] }])
  })

  it('notes which instances an EC2 TerminateInstances named were group members at that moment', async () => {
    const { member, stray, writes, recorded } = world()
    await recorded.terminateInstances([member.id, stray.id])
    expect(writes).toEqual([
      { method: 'terminateInstances', args: [[member.id, stray.id]], members: [member.id] },
    ])
    expect(leavesThroughAutoScalingCheck(writes)).toMatchObject({ status: 'fail' })
  })

  it('records no read', async () => {
    const { member, writes, recorded } = world()
    await recorded.describeInstances([member.id])
    await recorded.describeGroups({ tagKey: undefined, tagValues: [] })
    expect(writes).toEqual([])
    expect(recorded.region).toBe('us-east-1')
  })
})
