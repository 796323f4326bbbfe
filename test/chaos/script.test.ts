/**
 * The chaos script does what the cases say: a run asked for while another is in flight waits for it, events
 * are delivered twice or late, the owner's actions land, scripted crashes hit the n-th request.
 */
import { describe, expect, it } from 'vitest'
import { TAG_SWAP } from '../../lambdas/core/constants.ts'
import { markerMessage, splitMarker } from '../../lambdas/core/markers.ts'
import type { OwnerActionKind } from '../../tools/chaos/case.ts'
import { scenarioOf } from '../../tools/chaos/case.ts'
import { chaosFaults, chaosPrepare } from '../../tools/chaos/script.ts'
import type { FaultHooks } from '../../tools/sim/faults.ts'
import { SIM_ACCOUNT } from '../../tools/sim/marker-key.ts'
import { SPOTSWAP_POLICY } from '../../tools/sim/policy.ts'
import { groupArn } from '../../tools/sim/sdk/shapes.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import type { World } from '../../tools/sim/world.ts'
import { chaosCase, group, minute } from './support.ts'

/** Every request as `session:operation`, in the order they reach AWS, with the simulated time. */
const recordRequests = () => {
  const seen: { at: number; session: number; actor: string; operation: string }[] = []
  let world: World | undefined
  const hooks: FaultHooks = {
    decide: ({ session, operation }) => {
      seen.push({ at: world?.clock.now ?? 0, session: session.id, actor: session.actor, operation })
      return { kind: 'none' }
    },
  }
  return { seen, hooks, bind: (w: World) => (world = w) }
}

describe('chaos script', () => {
  it('delivers a run sent while another of the region is in flight once that one is done', async () => {
    const chaos = chaosCase({
      groups: [group('web', { desired: 4 }), group('api', { desired: 2 })],
      queuedRuns: [{ minute: 3, delayMs: 0, secondGroup: 'api' }],
    })
    const { seen, hooks, bind } = recordRequests()
    await simulate(scenarioOf(chaos), {
      // One lane: both runs go through the same message group (lanes.test.ts has runs of two lanes).
      policy: { ...SPOTSWAP_POLICY, lanes: 1 },
      faults: hooks,
      prepare: (world, invocations) => {
        bind(world)
        chaosPrepare(chaos)(world, invocations)
      },
    })
    // The two runs take well under 10 s; a look one of them asks for (a replacement whose attach wait ends)
    // may follow within it.
    const during = seen.filter((r) => r.at >= minute(3) && r.at < minute(3) + 10_000)
    const sessions = [...new Set(during.map((r) => r.session))]
    expect(sessions.length).toBeGreaterThanOrEqual(2)
    // One after the other, as the region's FIFO message group delivers them: never interleaved, so each
    // run's requests are one block.
    const blocks = during.map((r) => r.session).filter((session, i, all) => i === 0 || all[i - 1] !== session)
    expect(blocks).toEqual(sessions)
  })

  it('crashes the process at the n-th request of an operation, and only there', () => {
    const chaos = chaosCase({
      groups: [group('web')],
      crashes: [{ operation: 'ec2:CreateFleet', occurrence: 2, when: 'after' }],
    })
    const faults = chaosFaults(chaos, () => minute(0), minute(0))
    const session = { id: 1, actor: 'replacer', region: 'us-east-1', crashed: false, failedCalls: 0 } as const
    const decide = () =>
      faults.decide({ session: { ...session }, operation: 'ec2:CreateFleet', group: 'web' }).kind
    expect([decide(), decide(), decide()]).toEqual(['none', 'crash-after', 'none'])
  })

  it('fails requests of a service during its error storm only', () => {
    const base = chaosCase({ groups: [group('web')] })
    const chaos = {
      ...base,
      faults: {
        ...base.faults,
        storms: [{ fromMinute: 10, toMinute: 20, service: 'ec2' as const, rate: 1 }],
      },
    }
    let now = minute(0)
    const faults = chaosFaults(chaos, () => now, minute(0))
    const session = { id: 1, actor: 'replacer' as const, region: 'us-east-1', crashed: false, failedCalls: 0 }
    const decide = (operation: string) => faults.decide({ session, operation, group: undefined }).kind
    expect(decide('ec2:DescribeInstances')).toBe('none')
    now = minute(15)
    expect([decide('ec2:DescribeInstances'), decide('autoscaling:DescribeAutoScalingGroups')]).toEqual([
      'error',
      'none',
    ])
    now = minute(20)
    expect(decide('ec2:DescribeInstances')).toBe('none')
  })

  it('delivers every event twice when told to', async () => {
    const base = chaosCase({
      groups: [group('web', { desired: 2 })],
      interruptions: [{ minute: 20, group: 'web', count: 1 }],
    })
    const run = async (duplicateRate: number) => {
      const chaos = { ...base, events: { duplicateRate, delayRate: 0, maxDelaySeconds: 30 } }
      const { seen, hooks, bind } = recordRequests()
      await simulate(scenarioOf(chaos), {
        faults: hooks,
        prepare: (world, invocations) => {
          bind(world)
          chaosPrepare(chaos)(world, invocations)
        },
      })
      // The interruption handler's first read: one per delivered interruption event.
      return seen.filter(
        (r) => r.actor === 'interruption' && r.operation === 'autoscaling:DescribeAutoScalingInstances',
      ).length
    }
    const once = await run(0)
    expect(once).toBeGreaterThan(0)
    expect(await run(1)).toBe(once * 2)
  })

  it.each<[OwnerActionKind, boolean]>([
    ['forge-swap-unsigned', false],
    ['forge-swap-copied', false],
    ['forge-swap-foreign-key', false],
    ['replant-expired-swap', true],
  ])('plants a swap record of two pairs on the group for %s (MAC verifies: %s)', async (kind, verifies) => {
    const chaos = chaosCase({
      groups: [group('web', { desired: 3, healthCheckGracePeriod: 600 }), group('api', { desired: 1 })],
      owner: [{ minute: 2, group: 'web', kind, member: 0 }],
    })
    let seen: { payload: string; verifies: boolean } | undefined
    await simulate(scenarioOf(chaos), {
      prepare: (world, invocations) => {
        chaosPrepare(chaos)(world, invocations)
        world.clock.schedule(minute(3), 0, 'look', () => {
          const web = world.region('us-east-1').groups.get('web')
          const value = web?.tags[TAG_SWAP] ?? ''
          const split = splitMarker(value) ?? { payload: value, mac: '' }
          const message = markerMessage(
            { account: SIM_ACCOUNT, region: 'us-east-1' },
            `group:${web === undefined ? '' : groupArn(web)}`,
            TAG_SWAP,
            split.payload,
          )
          const mac = Buffer.from(split.mac, 'base64url')
          seen = {
            payload: split.payload,
            verifies: world.markerKey.verify(new TextEncoder().encode(message), mac),
          }
        })
      },
    })
    expect(seen?.payload).toMatch(/^v2 id=sforged phase=waiting owner=1 pairs=2 started=/)
    expect(seen?.verifies).toBe(verifies)
  })

  it('applies the owner’s protection to the member it names', async () => {
    const chaos = chaosCase({
      groups: [group('web', { desired: 2, healthCheckGracePeriod: 600 })],
      owner: [{ minute: 2, group: 'web', kind: 'protect-from-termination', member: 1 }],
    })
    let protectedIds: string[] = []
    await simulate(scenarioOf(chaos), {
      prepare: (world, invocations) => {
        chaosPrepare(chaos)(world, invocations)
        world.clock.schedule(minute(3), 0, 'look', () => {
          protectedIds = [...world.region('us-east-1').instances.values()]
            .filter((i) => i.terminationProtected)
            .map((i) => i.id)
        })
      },
    })
    expect(protectedIds).toHaveLength(1)
  })
  it('never protects a spot member from termination: EC2 refuses it on spot instances', async () => {
    const chaos = chaosCase({
      groups: [group('web', { desired: 3 })],
      owner: [0, 1, 2].map((member) => ({
        minute: 50,
        group: 'web',
        kind: 'protect-from-termination',
        member,
      })),
    })
    let seen: { lifecycle: string; protected: boolean }[] = []
    await simulate(scenarioOf(chaos), {
      prepare: (world, invocations) => {
        chaosPrepare(chaos)(world, invocations)
        world.clock.schedule(minute(51), 0, 'look', () => {
          const region = world.region('us-east-1')
          const web = region.groups.get('web')
          seen = [...(web?.members.keys() ?? [])].flatMap((id) => {
            const instance = region.instances.get(id)
            return instance === undefined
              ? []
              : [{ lifecycle: instance.lifecycle, protected: instance.terminationProtected === true }]
          })
        })
      },
    })
    expect(seen.filter((m) => m.lifecycle === 'spot').length).toBeGreaterThan(0)
    expect(seen.filter((m) => m.lifecycle === 'spot' && m.protected)).toEqual([])
  })
})
