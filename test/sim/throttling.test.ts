import { describe, expect, it } from 'vitest'
import { errorCode, isThrottle } from '../../lambdas/aws/errors.ts'
import { ApiCounter, ApiGate } from '../../tools/sim/api-gate.ts'
import { SimClock } from '../../tools/sim/clock.ts'
import { API_CALL_MS } from '../../tools/sim/constants.ts'
import { NO_FAULTS, randomFaults, type Session } from '../../tools/sim/faults.ts'
import { createRng } from '../../tools/sim/rng.ts'
import { Ec2Throttle, requestBucketSpec, TokenBucket } from '../../tools/sim/throttle.ts'

const session = (): Session => ({
  id: 1,
  actor: 'replacer',
  region: 'us-east-1',
  crashed: false,
  failedCalls: 0,
})

describe("EC2's published token buckets", () => {
  it.each([
    ['DescribeInstances', 100, 20],
    ['DescribeSpotPriceHistory', 100, 20],
    ['CreateFleet', 50, 5],
    ['CreateTags', 100, 10],
    ['DeleteTags', 100, 10],
    ['TerminateInstances', 100, 5],
    ['RunInstances', 5, 2],
  ])('gives %s a bucket of %i tokens refilled at %i per second', (action, capacity, refillPerSecond) => {
    expect(requestBucketSpec(action)).toEqual({ capacity, refillPerSecond })
  })

  it('empties after a burst of its size and refills at its rate', () => {
    const bucket = new TokenBucket({ capacity: 50, refillPerSecond: 5 }, 0)
    for (let i = 0; i < 50; i++) expect(bucket.take(0)).toBe(true)
    expect(bucket.take(0)).toBe(false)
    expect(bucket.take(199)).toBe(false)
    expect(bucket.take(200)).toBe(true)
    expect(bucket.available(100_000)).toBe(50)
  })

  it('charges TerminateInstances one resource token per instance (1000, refilled at 20 per second)', () => {
    const throttle = new Ec2Throttle()
    expect(throttle.admit('TerminateInstances', 0, 1000)).toBe(true)
    expect(throttle.admit('TerminateInstances', 0, 1)).toBe(false)
    expect(throttle.admit('TerminateInstances', 1000, 20)).toBe(true)
  })
})

describe('the API gate', () => {
  const gate = (throttle: boolean, clock = new SimClock(0), counter = new ApiCounter()) =>
    new ApiGate({
      clock,
      faults: randomFaults(NO_FAULTS, createRng(1)),
      throttle,
      rng: createRng(2),
      counter,
    })

  it('counts one request per call, per operation and per group, and spends simulated time on it', () => {
    const clock = new SimClock(0)
    const counter = new ApiCounter()
    const g = gate(true, clock, counter)
    g.call(session(), 'ec2:DescribeInstances', () => 1)
    g.call(session(), 'autoscaling:AttachInstances', () => 1, { group: 'web' })
    g.call(session(), 'autoscaling:AttachInstances', () => 1, { group: 'web' })
    expect(Object.fromEntries(counter.total)).toEqual({
      'ec2:DescribeInstances': 1,
      'autoscaling:AttachInstances': 2,
    })
    expect(Object.fromEntries(counter.byGroup.get('web') ?? [])).toEqual({ 'autoscaling:AttachInstances': 2 })
    expect(clock.now).toBeGreaterThan(0)
  })

  it('adds up the CPU spent answering requests only while metering, failed requests included', () => {
    const counter = new ApiCounter()
    const g = gate(false, new SimClock(0), counter)
    /** Work that takes measurable CPU: the simulated service building a large answer. */
    const busy = () => Array.from({ length: 200_000 }, (_, i) => `${i}`).join('').length
    g.call(session(), 'ec2:DescribeInstances', busy)
    expect(counter.cpuMicros).toBe(0)
    counter.meterCpu = true
    g.call(session(), 'ec2:DescribeInstances', busy)
    const metered = counter.cpuMicros
    expect(metered).toBeGreaterThan(0)
    expect(() =>
      g.call(session(), 'ec2:DescribeInstances', () => {
        busy()
        throw new Error('not found')
      }),
    ).toThrow('not found')
    expect(counter.cpuMicros).toBeGreaterThan(metered)
  })

  it("meters options worked out by a function (the simulator's lookups), and nested parts once", () => {
    const counter = new ApiCounter()
    const g = gate(false, new SimClock(0), counter)
    const busy = () => Array.from({ length: 200_000 }, (_, i) => `${i}`).join('').length
    counter.meterCpu = true
    const started = process.cpuUsage()
    g.call(
      session(),
      'ec2:DescribeInstanceAttribute',
      () => 1,
      () => ({ group: busy() > 0 ? 'web' : '' }),
    )
    const lookup = process.cpuUsage(started)
    // The lookup is the request's only work: nearly all of the call's CPU is counted as the simulator's.
    expect(counter.cpuMicros).toBeGreaterThan((lookup.user + lookup.system) / 2)
    expect(Object.fromEntries(counter.byGroup.get('web') ?? [])).toEqual({
      'ec2:DescribeInstanceAttribute': 1,
    })
    // A write's records around its request: one part, counted once, never twice.
    counter.cpuMicros = 0
    const outer = process.cpuUsage()
    g.metered(() => g.call(session(), 'ec2:CreateTags', busy))
    const whole = process.cpuUsage(outer)
    expect(counter.cpuMicros).toBeLessThanOrEqual(whole.user + whole.system)
  })

  it('counts the parts it meters, a nested part once and none while not metering', () => {
    const counter = new ApiCounter()
    const g = gate(false, new SimClock(0), counter)
    g.call(session(), 'ec2:DescribeInstances', () => 1)
    expect(counter.meteredParts).toBe(0)
    counter.meterCpu = true
    g.call(session(), 'ec2:DescribeInstances', () => 1)
    g.metered(() => g.call(session(), 'ec2:CreateTags', () => 1))
    expect(counter.meteredParts).toBe(2)
  })

  it('makes requests beyond the burst wait for tokens (the SDK retries with backoff) rather than fail', () => {
    const clock = new SimClock(0)
    const g = gate(true, clock)
    const durations: number[] = []
    for (let i = 0; i < 100; i++) {
      const before = clock.now
      g.call(session(), 'ec2:CreateFleet', () => undefined)
      durations.push(clock.now - before)
    }
    // 50 tokens, refilled at 5 per second while each request takes 25 ms: the bucket runs dry near the 57th,
    // and 100 requests need (100 - 50) / 5 = 10 s of refill in all.
    expect(durations.findIndex((ms) => ms > API_CALL_MS)).toBeGreaterThan(50)
    expect(clock.now).toBeGreaterThanOrEqual(10_000)
  })

  it('fails with RequestLimitExceeded, classified as throttling, once the SDK attempts are spent', () => {
    const clock = new SimClock(0)
    const noJitter = { ...createRng(3), next: () => 0 }
    const g = new ApiGate({
      clock,
      faults: randomFaults(NO_FAULTS, createRng(1)),
      throttle: true,
      rng: noJitter,
      counter: new ApiCounter(),
    })
    const caller = session()
    for (let i = 0; i < 5; i++) g.call(caller, 'ec2:RunInstances', () => undefined)
    let applied = false
    let throttled: unknown
    try {
      g.call(caller, 'ec2:RunInstances', () => {
        applied = true
      })
    } catch (error) {
      throttled = error
    }
    expect(applied).toBe(false)
    expect(errorCode(throttled)).toBe('RequestLimitExceeded')
    expect(isThrottle(throttled)).toBe(true)
    expect(caller.failedCalls).toBe(1)
  })

  it('never throttles Auto Scaling, which publishes no buckets, nor anything when throttling is off', () => {
    const g = gate(true)
    const off = gate(false)
    for (let i = 0; i < 500; i++) {
      g.call(session(), 'autoscaling:DescribeAutoScalingGroups', () => undefined)
      off.call(session(), 'ec2:CreateFleet', () => undefined)
    }
  })
})
