/**
 * Standalone tasks against the stateful fake: ECS never moves a task that is in no service, so a member
 * running one is never drained (nor replaced while it runs it), a member whose tasks cannot be read is kept
 * for the run, and a drain given up is not tried again for ECS_DRAIN_RETRY_MINUTES.
 */
import { describe, expect, it } from 'vitest'
import {
  ECS_DRAIN_DEADLINE_SECONDS,
  ECS_DRAIN_RETRY_MINUTES,
  TAG_NO_SPOT_CAPACITY_UNTIL,
} from '../../lambdas/core/constants.ts'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import { awsError, type FakeCloud } from '../fakes/fake-cloud.ts'
import { attached, CLUSTER, calls, ecsGroup } from './ecs-support.ts'
import { actionsOf, START, skipsOf } from './support.ts'

/** The one summary skip of `partner`, with `code`, its reason naming `naming`; nothing launched. */
const expectKept = (
  cloud: FakeCloud,
  summary: ReplacerSummary,
  partner: string,
  code: string,
  naming: string,
) => {
  expect(calls(cloud, 'launchSpot')).toEqual([])
  expect(skipsOf(summary)).toContainEqual(
    expect.objectContaining({ instanceId: partner, code, reason: expect.stringContaining(naming) }),
  )
}

describe('a member running a standalone task', () => {
  it('is kept, naming the task, and replaced once the task is gone', async () => {
    const { cloud, partner, h } = ecsGroup()
    cloud.runStandaloneTask(partner, 'nightly-report')
    expectKept(
      cloud,
      await h.run(),
      partner,
      'ecs-standalone-task',
      '(group family:nightly-report), which ECS never moves',
    )
    expect(
      h.recorded.metrics.filter((m) => m.values.some((v) => v.name === 'EcsMembersKeptForTasks')),
    ).toEqual([
      {
        dimensions: { Region: 'us-east-1', Group: 'web' },
        values: [{ name: 'EcsMembersKeptForTasks', unit: 'Count', value: 1 }],
      },
    ])

    // The task finished; the service's tasks still run there: ECS moves those.
    cloud.updateTasksOf(partner, (tasks) => tasks.filter((t) => t.group.startsWith('service:')))
    h.advanceMinutes(5)
    await h.run()
    expect(calls(cloud, 'launchSpot')).toHaveLength(1)
  })

  it('is kept for the run when its tasks cannot be read', async () => {
    const { cloud, partner, h } = ecsGroup()
    cloud.failNext('ecsClusterTasks', awsError('AccessDeniedException', 400))
    expectKept(cloud, await h.run(), partner, 'ecs-tasks-unreadable', 'AccessDeniedException')
    h.advanceMinutes(5)
    await h.run()
    expect(calls(cloud, 'launchSpot')).toHaveLength(1)
  })

  it('started after its replacement: the partner is never drained, the replacement leaves, no re-try for a day', async () => {
    const { cloud, partner, h } = ecsGroup()
    const replacement = await attached(cloud, h)
    cloud.registerContainerInstance(CLUSTER, replacement, 0)
    cloud.runStandaloneTask(partner)
    h.advanceMinutes(1)
    const gaveUp = await h.run()
    expect(calls(cloud, 'setContainerInstancesState')).toEqual([])
    expect(actionsOf(gaveUp)).toContainEqual(
      expect.objectContaining({
        kind: 'complete-swap',
        status: 'done',
        retire: 'replacement',
        reason: expect.stringContaining('ecs-standalone-task'),
      }),
    )
    expect(cloud.group('web').members.has(partner)).toBe(true)
    expect(cloud.group('web').members.has(replacement)).toBe(false)
    const backOff = Date.parse(cloud.instances.get(partner)?.tags[TAG_NO_SPOT_CAPACITY_UNTIL] ?? '')
    // Seven minutes in: the launch, the attach after the grace period, then this run.
    expect(backOff - (START.getTime() + 7 * 60_000)).toBe(ECS_DRAIN_RETRY_MINUTES * 60_000)
  })
})

describe('a drain given up', () => {
  it('is not tried again for ECS_DRAIN_RETRY_MINUTES', async () => {
    const { cloud, partner, h } = ecsGroup()
    const replacement = await attached(cloud, h)
    cloud.registerContainerInstance(CLUSTER, replacement, 0)
    h.advanceMinutes(1)
    await h.run()
    expect(cloud.containerInstanceOf(partner)?.status).toBe('DRAINING')
    // ECS cannot place the tasks elsewhere: the drain stalls and is given up.
    h.advanceSeconds(1800 + ECS_DRAIN_DEADLINE_SECONDS)
    await h.run()
    expect(cloud.containerInstanceOf(partner)?.status).toBe('ACTIVE')
    const launches = calls(cloud, 'launchSpot').length

    // Past any capacity back-off (30 minutes at most), short of a day: no new replacement, no drain.
    for (let run = 0; run < 6; run++) {
      h.advanceMinutes(60)
      await h.run()
    }
    expect(calls(cloud, 'launchSpot')).toHaveLength(launches)
    h.advanceMinutes(ECS_DRAIN_RETRY_MINUTES - 6 * 60)
    await h.run()
    expect(calls(cloud, 'launchSpot')).toHaveLength(launches + 1)
  })
})
