import { describe, expect, it } from 'vitest'
import {
  cleansLaunchesCheck,
  convergesCheck,
  interruptionCheck,
  isConverged,
  leavesThroughAutoScalingCheck,
  type MemberView,
  type Observation,
  servesCheck,
} from '../../tools/cli/verify-checks.ts'
import { estimateCost } from '../../tools/cli/verify-cost.ts'

const START = Date.parse('2026-11-27T10:00:00Z')

const member = (id: string, lifecycle: 'spot' | 'on-demand', lifecycleState = 'InService'): MemberView => ({
  id,
  lifecycle,
  lifecycleState,
  type: lifecycle === 'spot' ? 't3.micro' : 't3a.nano',
  zone: 'us-east-1a',
})

const look = (minute: number, members: MemberView[], extra: Partial<Observation> = {}): Observation => ({
  at: new Date(START + minute * 60_000),
  phase: 'convert',
  desired: 2,
  members,
  swapOpen: false,
  launched: [],
  ...extra,
})

const od1 = member('i-od1', 'on-demand')
const od2 = member('i-od2', 'on-demand')
const spot1 = member('i-spot1', 'spot')
const spot2 = member('i-spot2', 'spot')

describe('isConverged', () => {
  it.each([
    ['all spot in service', look(0, [spot1, spot2]), true],
    ['an on-demand member left', look(0, [spot1, od2]), false],
    ['a spot member still pending', look(0, [spot1, member('i-spot2', 'spot', 'Pending')]), false],
    ['a swap still open', look(0, [spot1, spot2], { swapOpen: true }), false],
    ['desired raised by a swap', look(0, [spot1, spot2], { desired: 3 }), false],
    ['one member short', look(0, [spot1]), false],
  ])('%s: %s', (_, observation, expected) => {
    expect(isConverged(observation, 2)).toBe(expected)
  })
})

describe('convergesCheck', () => {
  it('passes when the last look of the conversion shows spot members only and the on-demand ones gone', () => {
    const check = convergesCheck([look(0, [od1, od2]), look(5, [spot1, spot2])], 2, ['i-od1', 'i-od2'])
    expect(check).toMatchObject({ name: 'converges', status: 'pass' })
    expect(check.reason).toContain('i-od1, i-od2')
  })

  it('fails naming the on-demand members still there', () => {
    const check = convergesCheck([look(0, [od1, od2]), look(5, [spot1, od2])], 2, ['i-od1', 'i-od2'])
    expect(check.status).toBe('fail')
    expect(check.reason).toContain('still on-demand: i-od2')
  })

  it('judges the conversion, not the looks after the interruption', () => {
    const after = look(9, [spot1], { phase: 'interruption' })
    expect(convergesCheck([look(5, [spot1, spot2]), after], 2, []).status).toBe('pass')
  })
})

describe('servesCheck', () => {
  it('passes when every look from the first full one has the members in service', () => {
    const looks = [
      look(0, [member('i-od1', 'on-demand', 'Pending')]),
      look(1, [od1, od2]),
      look(2, [od1, od2, member('i-spot1', 'spot', 'Pending')], { desired: 3 }),
      look(3, [spot1, spot2]),
    ]
    expect(servesCheck(looks, 2)).toMatchObject({ status: 'pass' })
  })

  it('fails on a look with fewer members in service than at the start, naming when', () => {
    const looks = [
      look(0, [od1, od2]),
      look(1, [od1, member('i-od2', 'on-demand', 'Terminating')]),
      look(2, [spot1, spot2]),
    ]
    const check = servesCheck(looks, 2)
    expect(check.status).toBe('fail')
    expect(check.reason).toBe('1 of 2 members in service at 2026-11-27T10:01:00.000Z')
  })

  it('does not count the dip after the synthetic interruption (the warned member leaves at once)', () => {
    const looks = [look(0, [od1, od2]), look(1, [spot1], { phase: 'interruption' })]
    expect(servesCheck(looks, 2).status).toBe('pass')
  })

  it('fails when the group never served', () => {
    expect(servesCheck([look(0, [])], 2).status).toBe('fail')
  })
})

describe('leavesThroughAutoScalingCheck', () => {
  it('passes when members left through the group and EC2 terminated only non-members', () => {
    const check = leavesThroughAutoScalingCheck([
      { method: 'terminateInGroup', args: ['i-od1', true] },
      { method: 'terminateInstances', args: [['i-stray']], members: [] },
    ])
    expect(check).toMatchObject({ status: 'pass' })
    expect(check.reason).toContain('1 EC2 TerminateInstances call(s), none on a member')
  })

  it('fails when EC2 TerminateInstances named an instance that was a member at the time', () => {
    const check = leavesThroughAutoScalingCheck([
      { method: 'terminateInGroup', args: ['i-od1', true] },
      { method: 'terminateInstances', args: [['i-od2']], members: ['i-od2'] },
    ])
    expect(check).toMatchObject({
      status: 'fail',
      reason: 'group members terminated by EC2 TerminateInstances: i-od2',
    })
  })

  it('fails when nothing left the group: there was nothing to prove', () => {
    expect(leavesThroughAutoScalingCheck([{ method: 'attachInstances', args: ['g', ['i-1']] }]).status).toBe(
      'fail',
    )
  })
})

describe('cleansLaunchesCheck', () => {
  it('fails naming a launch left running outside the group', () => {
    const check = cleansLaunchesCheck([
      look(0, [spot1, spot2], { launched: [spot1, member('i-orphan', 'spot', 'running')] }),
    ])
    expect(check).toMatchObject({
      status: 'fail',
      reason: 'launched for the group but outside it: i-orphan running',
    })
  })

  it('passes when every launch is a member', () => {
    expect(cleansLaunchesCheck([look(0, [spot1, spot2], { launched: [spot1] })]).status).toBe('pass')
  })
})

describe('interruptionCheck', () => {
  const warned = { instanceId: 'i-spot1', outcome: 'acted: interrupted-member' }
  const spot3 = member('i-spot3', 'spot')

  it('passes when the warned member left and the group converged again', () => {
    const looks = [look(0, [spot1, spot2]), look(5, [spot2, spot3], { phase: 'interruption' })]
    expect(interruptionCheck(looks, 2, warned).status).toBe('pass')
  })

  it('fails while the warned member is still in the group', () => {
    const looks = [look(5, [spot1, spot2], { phase: 'interruption' })]
    expect(interruptionCheck(looks, 2, warned)).toMatchObject({ status: 'fail' })
  })

  it('is skipped when the conversion never finished', () => {
    expect(interruptionCheck([look(0, [od1, od2])], 2, undefined).status).toBe('skipped')
  })
})

describe('estimateCost', () => {
  it('charges each instance seen at a look until the next look, at its own price', () => {
    const looks = [look(0, [od1, od2]), look(30, [od1, od2], { launched: [spot1] }), look(90, [spot1, spot2])]
    const prices = new Map([
      ['t3a.nano on-demand', 0.0047],
      ['t3.micro spot', 0.004],
    ])
    const cost = estimateCost(looks, (type, lifecycle) => prices.get(`${type} ${lifecycle}`))
    // 2 on-demand × 1.5 h + 1 spot × 1 h (seen from the second look on)
    expect(cost.instanceHours).toBeCloseTo(4, 6)
    expect(cost.usd).toBeCloseTo(2 * 1.5 * 0.0047 + 1 * 0.004, 8)
    expect(cost.unpriced).toEqual([])
  })

  it('names the types it had no price for, counting their hours but not a cost', () => {
    const cost = estimateCost([look(0, [od1]), look(60, [od1])], () => undefined)
    expect(cost).toEqual({ usd: 0, instanceHours: 1, unpriced: ['t3a.nano on-demand'] })
  })
})
