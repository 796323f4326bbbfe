/**
 * The invariant watcher the tag corpus relies on must itself catch what it claims to: otherwise an
 * empty violations list would prove nothing.
 */
import { describe, expect, it } from 'vitest'
import { TAG_REPLACING_INSTANCE } from '../../lambdas/core/constants.ts'
import { watchInvariants } from './support/invariants.ts'
import { buildWorld, MANAGED, UNMANAGED } from './support/worlds.ts'

const setup = () => {
  const world = buildWorld()
  const watch = watchInvariants(world.cloud, MANAGED, world.untouchable)
  const [first] = [...world.cloud.group(MANAGED).members.keys()] as [string]
  return { ...world, watch, first }
}

describe('watchInvariants', () => {
  it('flags an on-demand member retired before any replacement is attached, and the dip below desired', async () => {
    const { cloud, watch, first } = setup()
    await cloud.terminateInGroup(first, true)
    expect(watch.violations).toEqual([
      `terminateInGroup retired on-demand ${first} before its replacement was attached`,
      'after terminateInGroup: 2 InService, fewer than desired 3',
    ])
  })

  it('accepts the safe order: launch, attach, then retire with a decrement', async () => {
    const { cloud, watch, first } = setup()
    const launched = await cloud.launchSpot({
      groupName: MANAGED,
      launchTemplate: undefined,
      launchConfigurationName: undefined,
      overrides: [{ instanceType: 'm5a.large', subnetId: 'subnet-a', zone: 'us-east-1b', priority: 0 }],
      allocationStrategy: 'price-capacity-optimized',
      tags: { [TAG_REPLACING_INSTANCE]: first },
      clientToken: 'test',
    })
    if (!launched.ok) throw new Error('launch failed')
    await cloud.setMaxSize(MANAGED, 4)
    await cloud.attachInstances(MANAGED, [launched.instanceId])
    await cloud.terminateInGroup(first, true)
    await cloud.setMaxSize(MANAGED, 3)
    expect(watch.violations).toEqual([])
  })

  it('flags any call naming another group or one of its instances', async () => {
    const { cloud, watch } = setup()
    const [batchMember] = [...cloud.group(UNMANAGED).members.keys()] as [string]
    await cloud.tagInstances([batchMember], { touched: 'yes' })
    await cloud.setMaxSize(UNMANAGED, 2)
    expect(watch.violations).toEqual([
      `tagInstances named ${batchMember}, which belongs to another group`,
      `setMaxSize named ${UNMANAGED}, which belongs to another group`,
    ])
  })
})
