/**
 * The simulator's CreateFleet and its client tokens, as EC2 does
 * (https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-idempotency.html): the same token with the same
 * parameters answers the first fleet's answer and launches nothing; with other parameters it is refused
 * with IdempotentParameterMismatch. And the replacer, meeting that refusal, moves on to a new attempt.
 */
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { TAG_REPLACEMENT_ATTEMPT, TAG_REPLACING_INSTANCE } from '../../lambdas/core/constants.ts'
import { splitMarker } from '../../lambdas/core/markers.ts'

const payloadOf = (value: string | undefined) =>
  value === undefined ? undefined : (splitMarker(value)?.payload ?? value)

import { silentLog } from '../../lambdas/core/log.ts'
import type { FleetOverride } from '../../lambdas/core/port.ts'
import { runRegion } from '../../lambdas/replacer/run-region.ts'
import { group, rawScenario, type TestWorld, testWorld } from './support.ts'

type Cloud = ReturnType<TestWorld['cloud']>

const { config } = parseGlobalConfig({})

/** One replacer run of the region, as the simulation invokes it. */
const runReplacer = (sim: TestWorld) =>
  runRegion({
    cloud: sim.cloud(),
    config,
    now: sim.world.clock.nowDate(),
    log: silentLog,
    metrics: { emit: () => undefined },
  })

const override = (instanceType: string): FleetOverride => ({
  instanceType,
  zone: 'us-east-1b',
  subnetId: 'subnet-us-east-1b',
  priority: 0,
})

const launch = (cloud: Cloud, partner: string, token: string, type = 'm5.large') =>
  cloud.launchSpot({
    groupName: 'web',
    launchTemplate: { id: 'lt-1', name: undefined, version: '$Default' },
    launchConfigurationName: undefined,
    overrides: [override(type)],
    allocationStrategy: 'lowest-price',
    tags: { 'launched-for-asg': 'web', [TAG_REPLACING_INSTANCE]: partner },
    clientToken: token,
  })

describe('the simulator’s CreateFleet client tokens', () => {
  it('answers a repeated token with the same parameters with the first launch, starting nothing new', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2 })]))
    const partner = [...sim.group('web').members.keys()][0] as string
    const first = await launch(sim.cloud(), partner, 'token-1')
    const count = sim.region.instances.size
    expect(await launch(sim.cloud(), partner, 'token-1')).toEqual(first)
    expect(sim.region.instances.size).toBe(count)
  })

  it('refuses a repeated token with other parameters: IdempotentParameterMismatch', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 2 })]))
    const partner = [...sim.group('web').members.keys()][0] as string
    await launch(sim.cloud(), partner, 'token-1')
    const count = sim.region.instances.size
    await expect(launch(sim.cloud(), partner, 'token-1', 'm5a.large')).rejects.toMatchObject({
      name: 'IdempotentParameterMismatch',
    })
    expect(sim.region.instances.size).toBe(count)
  })
})

describe('the replacer under simulation, meeting a token used with other parameters', () => {
  it('records attempt n+1 with attempt n’s start, then launches once with the new token', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 1, max: 3 })]))
    const partner = [...sim.group('web').members.keys()][0] as string
    const since = new Date(sim.world.clock.now - 60_000).toISOString()
    // An earlier run made attempt 1 with other overrides, EC2 answered with no capacity, and the run died
    // before recording that answer.
    const instance = sim.region.instances.get(partner)
    const signed = sim.world.markerKey.signedValue(
      'us-east-1',
      `instance:${partner}`,
      TAG_REPLACEMENT_ATTEMPT,
      `1@${since}`,
    )
    if (instance) instance.tags = { ...instance.tags, [TAG_REPLACEMENT_ATTEMPT]: signed }
    await launch(sim.cloud(), partner, `spotswap-${partner}-a1`, 'c5.xlarge').catch(() => undefined)
    // Nothing launched by it is visible (it launched nothing, or its launch is gone).
    for (const i of sim.region.instances.values())
      if (i.tags[TAG_REPLACING_INSTANCE] === partner) i.state = 'terminated'
    await runReplacer(sim)
    expect(payloadOf(sim.region.instances.get(partner)?.tags[TAG_REPLACEMENT_ATTEMPT])).toBe(`2@${since}`)
    await sim.advance(5 * 60_000)
    await runReplacer(sim)
    const live = [...sim.region.instances.values()].filter(
      (i) => i.tags[TAG_REPLACING_INSTANCE] === partner && (i.state === 'pending' || i.state === 'running'),
    )
    expect(live).toHaveLength(1)
    expect(payloadOf(sim.region.instances.get(partner)?.tags[TAG_REPLACEMENT_ATTEMPT])).toMatch(
      new RegExp(`^2:${live[0]?.id}@${since.replace(/\./g, '\\.')}`),
    )
  })
})
