/**
 * The simulator's AMIs: EC2 refuses to launch a type that requires ENA from an image without EnaSupport
 * (InvalidParameterCombination), and a Nitro type launched from an image without NVMe drivers never boots.
 * And the replacer's filters keep such types away from a Xen group unless ALLOW_XEN_TO_NITRO says the
 * image is ready.
 */
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { TAG_REPLACING_INSTANCE } from '../../lambdas/core/constants.ts'
import { silentLog } from '../../lambdas/core/log.ts'
import { runRegion } from '../../lambdas/replacer/run-region.ts'
import { group, rawScenario, type TestWorld, testWorld } from './support.ts'

const launch = (sim: TestWorld, instanceType: string) =>
  sim.cloud().launchSpot({
    groupName: 'web',
    launchTemplate: { id: 'lt-1', name: undefined, version: '$Default' },
    launchConfigurationName: undefined,
    overrides: [{ instanceType, zone: 'us-east-1b', subnetId: 'subnet-us-east-1b', priority: 0 }],
    allocationStrategy: 'lowest-price',
    tags: { 'launched-for-asg': 'web', [TAG_REPLACING_INSTANCE]: 'i-0' },
    clientToken: `token-${instanceType}`,
  })

const xenGroup = (image: Record<string, boolean>) =>
  testWorld(rawScenario([group('web', { instanceType: 'm4.large', desired: 2, image })]))

describe('the simulator’s images', () => {
  it('refuses an ENA-required type for an image without EnaSupport: InvalidParameterCombination', async () => {
    const result = await launch(xenGroup({ enaSupport: false }), 'm5.large')
    expect(result).toMatchObject({
      ok: false,
      errors: [{ instanceType: 'm5.large', code: 'InvalidParameterCombination' }],
    })
  })

  it('launches a type that does not require ENA from the same image', async () => {
    expect(await launch(xenGroup({ enaSupport: false }), 'm4.xlarge')).toMatchObject({ ok: true })
  })

  it('launches a Nitro type from an image without NVMe drivers, which then never turns healthy', async () => {
    const sim = xenGroup({ nvmeDrivers: false })
    const nitro = await launch(sim, 'm5.large')
    const xen = await launch(sim, 'm4.xlarge')
    if (!nitro.ok || !xen.ok) throw new Error('both launches should start an instance')
    expect(sim.region.instances.get(nitro.instanceId)?.neverHealthy).toBe(true)
    expect(sim.region.instances.get(xen.instanceId)?.neverHealthy).toBe(false)
  })

  it('launches anything from an image with ENA and NVMe drivers (the default)', async () => {
    const sim = testWorld(rawScenario([group('web', { instanceType: 'm4.large', desired: 2 })]))
    const result = await launch(sim, 'm5.large')
    if (!result.ok) throw new Error('the launch should start an instance')
    expect(sim.region.instances.get(result.instanceId)?.neverHealthy).toBe(false)
  })

  it.each([
    [{}, ['m4', 'm3', 'c4', 'r4', 'r3', 'c3', 'i2', 'd2', 'x1', 'h1', 't2', 'p2', 'p3', 'g3', 'f1']],
    [{ ALLOW_XEN_TO_NITRO: 'true' }, undefined],
  ])(
    'with env %j, launches for a Xen group whose image lacks ENA offer Xen families only: %j',
    async (env, xenFamilies) => {
      const sim = xenGroup({ enaSupport: false })
      const { config } = parseGlobalConfig(env)
      const result = await runRegion({
        cloud: sim.cloud(),
        config,
        now: sim.world.clock.nowDate(),
        log: silentLog,
        metrics: { emit: () => undefined },
      })
      const launches = result.groups.flatMap((g) => g.outcomes).filter((o) => o.action.kind === 'launch-spot')
      expect(launches.length).toBeGreaterThan(0)
      const refused = launches.filter((o) => o.status === 'failed')
      if (xenFamilies === undefined) {
        // Told the image is ready, it offers Nitro types, and EC2 refuses them for this image.
        expect(refused.length).toBeGreaterThan(0)
        expect(refused[0]?.detail).toMatch(/InvalidParameterCombination/)
      } else {
        expect(refused).toEqual([])
        for (const outcome of launches) {
          if (outcome.action.kind !== 'launch-spot') continue
          for (const { instanceType } of outcome.action.overrides)
            expect(xenFamilies).toContain(instanceType.split('.')[0])
        }
      }
    },
  )
})
