import { describe, expect, it } from 'vitest'
import { Priority, SimClock } from '../../tools/sim/clock.ts'

const drain = (clock: SimClock, until: number): string[] => {
  const order: string[] = []
  for (let event = clock.popDue(until); event !== undefined; event = clock.popDue(until))
    order.push(event.label)
  return order
}

describe('SimClock', () => {
  it('runs events by time, then priority, then the order they were scheduled', () => {
    const clock = new SimClock(0)
    clock.schedule(20, Priority.transition, 'late', () => {})
    clock.schedule(10, Priority.tick, 'tick', () => {})
    clock.schedule(10, Priority.transition, 'boot-1', () => {})
    clock.schedule(10, Priority.transition, 'boot-2', () => {})
    clock.schedule(10, Priority.external, 'owner', () => {})
    expect(drain(clock, 100)).toEqual(['boot-1', 'boot-2', 'owner', 'tick', 'late'])
    expect(clock.now).toBe(20)
  })

  it('leaves events after the horizon queued and never moves backwards', () => {
    const clock = new SimClock(0)
    clock.schedule(50, Priority.tick, 'later', () => {})
    clock.advanceTo(30)
    clock.advanceTo(10)
    expect(drain(clock, 40)).toEqual([])
    expect(clock.now).toBe(30)
    expect(clock.pending).toBe(1)
  })

  it('runs an event that fell due during an invocation at the current time, not in the past', () => {
    const clock = new SimClock(0)
    clock.schedule(5, Priority.transition, 'overdue', () => {})
    clock.advanceBy(8)
    expect(clock.popDue(100)?.label).toBe('overdue')
    expect(clock.now).toBe(8)
  })
})
