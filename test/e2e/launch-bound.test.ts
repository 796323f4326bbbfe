/**
 * Launches spotswap cannot verify, against moto's own CreateFleet: moto 5.2.1 writes no
 * `aws:ec2launchtemplate:id` on what CreateFleet launches, so provenance refuses every launch as
 * `foreign-template`. The other suites add the tag as EC2 would (support/launch-template-tag.ts); this one
 * turns that off. However many runs, the launches it cannot verify stay within the group's in-flight
 * budget (a set 25% of 8: 2; the default of a group without load balancers, the whole group, is bounded
 * the same way in test/replacer/unverified-launches.test.ts), nothing is attached or terminated on their basis, and each run reports them.
 */
import { expect, it, vi } from 'vitest'
import type { MetricsSink } from '../../lambdas/core/log.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import { scheduledEvent } from '../events/builders.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { LAUNCH_TEMPLATE_TAG, withoutLaunchTemplateTag } from './support/launch-template-tag.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { withEnvRestored } from './support/replacer-runs.ts'
import { allInstances, createGroup, groupState } from './support/world.ts'

describeMoto('launches spotswap cannot verify, against moto’s own CreateFleet', (moto) => {
  freshAccountPerTest(moto)

  it(
    'leaves at most the in-flight budget of them after 8 runs, and reports them in the summary and a metric',
    async () => {
      const restore = withEnvRestored()
      const retag = withoutLaunchTemplateTag()
      try {
        await createGroup({ name: 'web', desired: 8, min: 1, max: 8, tags: { 'spot-enabled': 'true' } })
        const members = new Set((await groupState('web')).members.map((m) => m.id))
        vi.resetModules()
        process.env.REGIONS = 'us-east-1'
        process.env.MAX_REPLACEMENTS_IN_FLIGHT = '25%'
        const { createHandler } = await import('../../lambdas/replacer/create-handler.ts')
        const { defaultDeps } = await import('../../lambdas/replacer/default-deps.ts')
        const emitted: { name: string; value: number; group: string | undefined }[] = []
        const metrics: MetricsSink = {
          emit: (dimensions, values) => {
            for (const v of values) emitted.push({ name: v.name, value: v.value, group: dimensions.Group })
          },
        }
        let now = new Date()
        const handle = createHandler({
          ...defaultDeps(),
          metrics,
          now: () => now,
          requestRun: async () => {},
        })
        let group: Record<string, unknown> | undefined
        for (let run = 0; run < 8; run++) {
          emitted.length = 0
          const summary = await handle(scheduledEvent())
          expect(summary.ok).toBe(true)
          group = summary.regions[0]?.groups?.find((g) => g.group === 'web')
          now = new Date(now.getTime() + 6 * 60_000)
        }
        const outside = (await allInstances()).filter(
          (i) => i.lifecycle === 'spot' && !members.has(i.id) && i.tags['launched-for-asg'] === 'web',
        )
        // moto's quirk itself: none carries the template tag.
        expect(outside.every((i) => i.tags[LAUNCH_TEMPLATE_TAG] === undefined)).toBe(true)
        expect(outside).toHaveLength(2)
        expect(outside.every((i) => i.state === 'running' || i.state === 'pending')).toBe(true)
        const web = await groupState('web')
        expect(web.members.filter((m) => m.lifecycle === 'spot')).toHaveLength(0)
        expect(web.members.map((m) => m.id).sort()).toEqual([...members].sort())
        expect([...((group?.unverifiedLaunches ?? []) as string[])].sort()).toEqual(
          outside.map((i) => i.id).sort(),
        )
        expect(group?.stillOnDemandByReason).toMatchObject({ 'unverified-launch': 2 })
        expect(emitted).toContainEqual({ name: Metric.UnverifiedLaunches, value: 2, group: 'web' })
      } finally {
        retag()
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})
