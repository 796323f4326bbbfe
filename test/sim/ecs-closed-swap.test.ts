/**
 * A drain swap that managed scaling closes (the bench's ecs-cluster scenario: at 18:06 it changes desired
 * capacity mid-swap, and the swap closes, nothing retired): the partners spotswap drained are set ACTIVE
 * again rather than left DRAINING, where ECS places no task on them, and no replacement launches with a
 * marker spotswap would not believe; its pairs are released though ECS protects the replacements (they
 * run tasks), so the partners are replaced again by a later swap.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { TAG_ECS_DRAINED } from '../../lambdas/core/constants.ts'
import type { Log } from '../../lambdas/core/log.ts'
import { Priority } from '../../tools/sim/clock.ts'
import { simulate } from '../../tools/sim/simulate.ts'
import { parse } from './support.ts'

const raw = () =>
  JSON.parse(readFileSync(new URL('../../bench/scenarios/ecs-cluster.json', import.meta.url), 'utf8'))

describe('a drain swap managed scaling closes', () => {
  it('leaves no partner DRAINING once the swaps are over, and writes no marker it does not believe', async () => {
    const warnings: string[] = []
    const log: Log = {
      debug: () => {},
      info: () => {},
      warn: (message, attributes) => warnings.push(`${message} ${JSON.stringify(attributes)}`),
      error: () => {},
    }
    const drainingAt19: string[] = []
    // The scenario's swaps are over by 18:30; its first interruption is at 04:00.
    const at = Date.parse('2022-05-31T19:00:00Z')
    await simulate(parse(raw()), {
      log,
      prepare: (world) =>
        world.clock.schedule(at, Priority.tick, 'look at the cluster', () => {
          const region = world.region('us-east-1')
          for (const ci of region.ecsClusters.get('cluster')?.containerInstances.values() ?? [])
            if (ci.status === 'DRAINING')
              drainingAt19.push(
                `${ci.ec2InstanceId} ${region.instances.get(ci.ec2InstanceId)?.tags[TAG_ECS_DRAINED]}`,
              )
        }),
    })
    expect(drainingAt19).toEqual([])
    expect(warnings.filter((w) => w.startsWith('marker not believed'))).toEqual([])
  }, 60_000)

  it('releases the pairs whose replacements ECS protects, and replaces their partners again', async () => {
    const onDemandAt19: string[] = []
    const at = Date.parse('2022-05-31T19:00:00Z')
    const report = await simulate(parse(raw()), {
      prepare: (world) =>
        world.clock.schedule(at, Priority.tick, 'look at the group', () => {
          const region = world.region('us-east-1')
          for (const id of region.groups.get('cluster')?.members.keys() ?? [])
            if (region.instances.get(id)?.lifecycle === 'on-demand') onDemandAt19.push(id)
        }),
    })
    // Kept named by their protected replacements, i-…1005 and i-…1006 stayed on demand until 04:00.
    expect(onDemandAt19).toEqual([])
    expect(report.violations).toEqual([])
  }, 60_000)
})
