import { describe, expect, it } from 'vitest'
import { REGION_LANES } from '../../lambdas/core/constants.ts'
import { engineCpuMicros, type PlanMeasurement, probe } from '../../tools/bench/scale-probe.ts'

const tiny = {
  mode: 'plan',
  state: 'unconverged',
  regions: 1,
  groupsPerRegion: 3,
  instancesPerGroup: 2,
} as const

describe('the scale probe', () => {
  it('measures only the second pass when warm: the same requests as one cold pass, none of the first', async () => {
    const cold = (await probe(tiny)) as PlanMeasurement
    const warm = (await probe({ ...tiny, warm: true })) as PlanMeasurement
    expect([cold.warm, warm.warm]).toEqual([false, true])
    expect(Object.keys(cold.apiCalls).length).toBeGreaterThan(0)
    // DRY_RUN changes nothing, so the second pass asks what the first asked, minus what the caches keep.
    for (const [operation, count] of Object.entries(warm.apiCalls))
      expect(count).toBeLessThanOrEqual(cold.apiCalls[operation] ?? 0)
    expect(warm.apiCalls['ec2:DescribeInstanceTypes']).toBeUndefined()
    expect(warm.apiCalls['autoscaling:DescribeAutoScalingGroups']).toBe(
      cold.apiCalls['autoscaling:DescribeAutoScalingGroups'],
    )
    expect(warm.unconvergedGroups).toBe(cold.unconvergedGroups)
    expect(warm.referenceCpuMs).toBeGreaterThan(0)
    // Metering the simulated services is the probe's work: neither the simulator's nor the engine's.
    expect(warm.meteringOverheadMs).toBeGreaterThanOrEqual(0)
    expect(
      Math.abs(warm.cpuMs - (warm.processCpuMs - warm.simulatedAwsCpuMs - warm.meteringOverheadMs)),
    ).toBeLessThanOrEqual(2)
  }, 60_000)

  it("takes the metering's own cost, per metered part, out of the engine's CPU", () => {
    expect(engineCpuMicros(10_000, 3_000, 500, 4)).toBe(5_000)
    expect(engineCpuMicros(10_000, 3_000, 0, 4)).toBe(7_000)
  })

  it('starts a cold pass from a new container: what converging the account read is not cached', async () => {
    const cold = (await probe({ ...tiny, state: 'converged' })) as PlanMeasurement
    expect(cold.unconvergedGroups).toBe(0)
    expect(cold.apiCalls['ec2:DescribeInstanceTypes']).toBeGreaterThan(0)
    // Converged members keep markers no decision reads: a new container asks KMS about none of them.
    expect(cold.apiCalls['kms:VerifyMac']).toBeUndefined()
  }, 60_000)

  it('runs every lane of a converged region by lane, each a run of its own', async () => {
    const byLane = (await probe({ ...tiny, state: 'converged', shape: 'by-lane' })) as PlanMeasurement
    expect(byLane.invocations?.count).toBe(REGION_LANES)
    expect(byLane.apiCalls['autoscaling:DescribeAutoScalingGroups']).toBeGreaterThanOrEqual(REGION_LANES)
    // Each lane a new container, none asks KMS about the converged members' markers.
    expect(byLane.apiCalls['kms:VerifyMac']).toBeUndefined()
  }, 60_000)
})
