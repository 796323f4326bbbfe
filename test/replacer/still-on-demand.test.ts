/**
 * Why on-demand members are still on-demand, where users look (issue 16): the run's summary, the log
 * (once per change of reason, in the container's memory: a cold start logs again) and the metrics.
 */
import { describe, expect, it } from 'vitest'
import { DIMENSION_REASON, Metric } from '../../lambdas/core/metric-names.ts'
import { cloudWithFleet, harness } from './support.ts'

/**
 * A group of 4 on-demand members with a budget of a quarter: the first run launches for one, the other
 * three wait for the budget.
 */
const fourOnDemand = (env: Record<string, string> = {}) => {
  const cloud = cloudWithFleet(4)
  return { cloud, h: harness({ 'us-east-1': cloud }, { MAX_REPLACEMENTS_IN_FLIGHT: '25%', ...env }) }
}

const reasonLogs = (h: ReturnType<typeof harness>) =>
  h.recorded.logs.filter((l) => l.message === 'still on-demand').map((l) => l.attributes)

describe('still on-demand', () => {
  it('lists the members held back in the summary, with a count per reason', async () => {
    const { h } = fourOnDemand()
    const summary = await h.run()
    const group = summary.regions[0]?.groups?.[0]
    expect(group?.stillOnDemandByReason).toEqual({ 'in-flight-budget': 3 })
    expect(group?.stillOnDemand).toHaveLength(3)
    expect(group?.stillOnDemand).toContainEqual(
      expect.objectContaining({ code: 'in-flight-budget', type: 'm5.large', progress: false }),
    )
  })

  it('logs a reason once, and again only when it changes', async () => {
    const { h } = fourOnDemand()
    await h.run()
    expect(reasonLogs(h)).toHaveLength(3)
    h.recorded.logs.length = 0
    h.advanceMinutes(1)
    // The same three still wait for the budget: nothing new to say.
    await h.run()
    expect(reasonLogs(h)).toEqual([])
  })

  it('counts the members held back per region and per reason, and per group in the log', async () => {
    const { h } = fourOnDemand()
    await h.run()
    const held = h.recorded.metrics.flatMap((m) =>
      m.values.filter((v) => v.name === Metric.OnDemandHeldBack).map((v) => [m.dimensions, v.value]),
    )
    expect(held).toContainEqual([{ Region: 'us-east-1' }, 3])
    expect(held).toContainEqual([{ Region: 'us-east-1', [DIMENSION_REASON]: 'in-flight-budget' }, 3])
    expect(held).not.toContainEqual([{ Region: 'us-east-1', Group: 'web' }, 3])
    expect(h.recorded.logs).toContainEqual(
      expect.objectContaining({
        message: 'group figures',
        attributes: expect.objectContaining({ group: 'web', heldBack: 3 }),
      }),
    )
  })

  it('counts them per group as a metric too with GROUP_METRICS', async () => {
    const { h } = fourOnDemand({ GROUP_METRICS: 'true' })
    await h.run()
    const held = h.recorded.metrics.flatMap((m) =>
      m.values.filter((v) => v.name === Metric.OnDemandHeldBack).map((v) => [m.dimensions, v.value]),
    )
    expect(held).toContainEqual([{ Region: 'us-east-1', Group: 'web' }, 3])
  })
})
