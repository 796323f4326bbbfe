/**
 * The replacer against moto_server, through the real AWS adapter and SDK. Only the clock is injected
 * (grace periods are minutes long); everything else is the handler as deployed.
 */
import { DescribeLaunchTemplatesCommand } from '@aws-sdk/client-ec2'
import { expect, it, vi } from 'vitest'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { scheduledEvent } from '../events/builders.ts'
import { ec2 } from './support/clients.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { withEnvRestored } from './support/replacer-runs.ts'
import { allInstances, createGroup, groupState } from './support/world.ts'

/** Fresh modules per test: SDK clients and caches must pick up this test's moto account. */
const loadHandler = async (env: Record<string, string>, clock: () => Date) => {
  vi.resetModules()
  Object.assign(process.env, { REGIONS: 'us-east-1', ...env })
  const { createHandler } = await import('../../lambdas/replacer/create-handler.ts')
  const { defaultDeps } = await import('../../lambdas/replacer/default-deps.ts')
  return createHandler({ ...defaultDeps(), now: clock })
}

describeMoto('replacer against moto', (moto) => {
  freshAccountPerTest(moto)

  it(
    'converges a tagged group of 3 on-demand m5.large to 3 compatible spot instances, leaving an untagged group alone',
    async () => {
      const restore = withEnvRestored()
      try {
        await createGroup({
          name: 'web',
          desired: 3,
          min: 3,
          max: 3,
          tags: { 'spot-enabled': 'true', team: 'web' },
        })
        await createGroup({ name: 'batch', desired: 1, min: 1, max: 1, tags: { team: 'data' } })
        const batchBefore = await groupState('batch')
        let now = new Date()
        const handle = await loadHandler({}, () => now)
        const summaries: ReplacerSummary[] = []
        for (let run = 0; run < 8; run++) {
          summaries.push(await handle(scheduledEvent(), {}))
          now = new Date(now.getTime() + 6 * 60_000)
        }
        expect(summaries.every((s) => s.ok)).toBe(true)

        const web = await groupState('web')
        expect({ desired: web.desired, min: web.min, max: web.max }).toEqual({ desired: 3, min: 3, max: 3 })
        expect(web.members).toHaveLength(3)
        expect(web.members.every((m) => m.lifecycle === 'spot' && m.lifecycleState === 'InService')).toBe(
          true,
        )
        const catalog = embeddedCatalog()
        for (const member of web.members) {
          const info = catalog.get(member.type)
          expect(info?.burstable, member.type).toBe(false)
          expect(info?.vcpus).toBeGreaterThanOrEqual(2)
          expect(info?.memoryMiB).toBeGreaterThanOrEqual(8192)
          expect(info?.architectures).toContain('x86_64')
        }
        expect(web.tags['spotswap:original-max-size']).toBeUndefined()

        // No orphans: every running spot instance is a member of the group.
        const running = (await allInstances()).filter((i) => i.state === 'running' || i.state === 'pending')
        const spot = running.filter((i) => i.lifecycle === 'spot')
        expect(spot.map((i) => i.id).sort()).toEqual(web.members.map((m) => m.id).sort())
        // Members for good once no swap is open: the launch tags gave way to the membership record,
        // signed with the account's marker key (KMS GenerateMac: 32 bytes, 43 base64url characters).
        expect(
          spot.every(
            (i) =>
              /^web mac=[A-Za-z0-9_-]{43}$/.test(i.tags['spotswap:joined-group'] ?? '') &&
              i.tags['launched-for-asg'] === undefined &&
              i.tags.team === 'web',
          ),
        ).toBe(true)

        expect(await groupState('batch')).toEqual(batchBefore)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'converts a launch-configuration group through a temporary launch template that it deletes afterwards',
    async () => {
      const restore = withEnvRestored()
      try {
        await createGroup({
          name: 'legacy',
          desired: 1,
          min: 1,
          max: 1,
          launch: 'configuration',
          tags: { 'spot-enabled': 'true' },
        })
        let now = new Date()
        const handle = await loadHandler({}, () => now)
        for (let run = 0; run < 3; run++) {
          await handle(scheduledEvent(), {})
          now = new Date(now.getTime() + 6 * 60_000)
        }
        const legacy = await groupState('legacy')
        expect(legacy.members.map((m) => m.lifecycle)).toEqual(['spot'])
        expect({ desired: legacy.desired, max: legacy.max }).toEqual({ desired: 1, max: 1 })
        const templates = await ec2().send(new DescribeLaunchTemplatesCommand({}))
        expect(
          (templates.LaunchTemplates ?? []).filter((t) => t.LaunchTemplateName?.startsWith('spotswap-')),
        ).toEqual([])
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'changes nothing with DRY_RUN=true',
    async () => {
      const restore = withEnvRestored()
      try {
        await createGroup({ name: 'web', desired: 2, min: 0, max: 2, tags: { 'spot-enabled': 'true' } })
        const before = await groupState('web')
        const instancesBefore = await allInstances()
        let now = new Date()
        const handle = await loadHandler({ DRY_RUN: 'true' }, () => now)
        const first = await handle(scheduledEvent(), {})
        now = new Date(now.getTime() + 6 * 60_000)
        await handle(scheduledEvent(), {})
        expect(first.regions[0]?.groups?.[0]?.actions).toContainEqual(
          expect.objectContaining({ kind: 'launch-spot', status: 'planned' }),
        )
        expect(await groupState('web')).toEqual(before)
        expect(await allInstances()).toEqual(instancesBefore)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'can be imported and invoked as it is, with only the endpoint, credentials, AWS_REGION and REGIONS set',
    async () => {
      const restore = withEnvRestored()
      try {
        await createGroup({ name: 'web', desired: 1, min: 1, max: 1, tags: { 'spot-enabled': 'true' } })
        vi.resetModules()
        process.env.REGIONS = 'us-east-1'
        const { handler } = await import('../../lambdas/replacer/handler.ts')
        const summary = await handler(scheduledEvent(), {})
        expect(summary.ok).toBe(true)
        expect(summary.regions[0]?.groups?.[0]?.actions).toEqual([
          expect.objectContaining({
            kind: 'launch-spot',
            status: 'done',
            instanceId: expect.stringMatching(/^i-/),
          }),
        ])
        const spot = (await allInstances()).filter((i) => i.lifecycle === 'spot')
        expect(spot).toHaveLength(1)
        expect(spot[0]?.tags['launched-for-replacing-instance']).toMatch(/^i-/)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})
