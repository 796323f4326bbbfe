/**
 * UpdateAutoScalingGroup with DesiredCapacity in the simulator, as AWS does it: within MinSize and MaxSize
 * or refused whole; the group launches (from its own template) or terminates to reach it.
 */
import { describe, expect, it } from 'vitest'
import { errorCode } from '../../lambdas/aws/errors.ts'
import { updateDesiredCapacity } from '../../tools/sim/asg-api.ts'
import { BOOT_SECONDS } from '../../tools/sim/constants.ts'
import { rejection } from '../builders/errors.ts'
import { group, rawScenario, testWorld } from './support.ts'

const BOOT_MS = BOOT_SECONDS * 1000

describe('DesiredCapacity through UpdateAutoScalingGroup in the simulator', () => {
  it('raises desired capacity by one: the group launches an on-demand member, with the activity AWS writes', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3, max: 4 })]))
    updateDesiredCapacity(sim.world, sim.region, 'web', 4)
    expect(sim.group('web').desiredCapacity).toBe(4)
    expect(sim.group('web').activities.at(-1)?.cause).toMatch(
      /a user request update of AutoScalingGroup constraints to min: 0, max: 4, desired: 4 changing the desired capacity from 3 to 4\./,
    )
    await sim.advance(BOOT_MS)
    const inService = sim.members('web', 'InService')
    expect(inService).toHaveLength(4)
    expect(inService.every((i) => i.lifecycle === 'on-demand')).toBe(true)
  })

  it('lowers it: the group terminates a member', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3, max: 3 })]))
    updateDesiredCapacity(sim.world, sim.region, 'web', 2)
    await sim.advance(BOOT_MS)
    expect(sim.members('web', 'InService')).toHaveLength(2)
  })

  it('raises MaxSize and desired capacity in one request', () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3, max: 3 })]))
    updateDesiredCapacity(sim.world, sim.region, 'web', 4, 4)
    expect(sim.group('web')).toMatchObject({ maxSize: 4, desiredCapacity: 4 })
  })

  it.each([
    [4, undefined, 'Desired capacity:4 must be between the specified min size:1 and max size:3'],
    [0, undefined, 'Desired capacity:0 must be between the specified min size:1 and max size:3'],
    [4, 0, 'Max bound, 0, must be greater than or equal to min bound, 1'],
  ])(
    'refuses desired %i (MaxSize %s) with a ValidationError and changes nothing',
    async (desired, max, message) => {
      const sim = testWorld(rawScenario([group('web', { desired: 3, min: 1, max: 3 })]))
      const error = await rejection(
        Promise.resolve().then(() => updateDesiredCapacity(sim.world, sim.region, 'web', desired, max)),
      )
      expect(errorCode(error)).toBe('ValidationError')
      expect((error as Error).message).toBe(message)
      expect(sim.group('web')).toMatchObject({ maxSize: 3, desiredCapacity: 3 })
    },
  )

  it('writes no activity when desired capacity already is that value', () => {
    const sim = testWorld(rawScenario([group('web', { desired: 3, max: 3 })]))
    const before = sim.group('web').activities.length
    updateDesiredCapacity(sim.world, sim.region, 'web', 3)
    expect(sim.group('web').activities).toHaveLength(before)
  })
})
