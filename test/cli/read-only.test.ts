import { describe, expect, it } from 'vitest'
import { PORT_WRITES } from '../../lambdas/core/port.ts'
import { ReadOnlyViolationError, readOnly } from '../../tools/cli/read-only.ts'
import { group, rawScenario, testWorld } from '../sim/support.ts'

describe('the read-only port of spotswap plan', () => {
  it('passes reads through and refuses every write without reaching the cloud', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2 })]))
    const cloud = readOnly(sim.cloud())
    expect(await cloud.describeGroups({ tagKey: undefined, tagValues: [] })).toHaveLength(1)
    const [member] = sim.members('web')
    const writes = [
      cloud.terminateInstances([member?.id ?? '']),
      cloud.terminateInGroup(member?.id ?? '', true),
      cloud.detachInstances('web', [member?.id ?? ''], false),
      cloud.setMaxSize('web', 9),
      cloud.tagGroup('web', { a: 'b' }),
      cloud.tagInstances([member?.id ?? ''], { 'spotswap:x': 'y' }),
    ]
    for (const write of writes) await expect(write).rejects.toBeInstanceOf(ReadOnlyViolationError)
    expect(sim.members('web', 'InService')).toHaveLength(2)
    expect(sim.group('web').maxSize).toBe(6)
    expect(Object.keys(Object.fromEntries(sim.world.counter.total))).toEqual([
      'autoscaling:DescribeAutoScalingGroups',
    ])
  })

  it('covers every write method of the port', () => {
    const cloud = readOnly(testWorld(rawScenario([group('web', { desired: 1 })])).cloud())
    for (const method of PORT_WRITES) expect(typeof cloud[method], method).toBe('function')
  })
})
