import { describe, expect, it } from 'vitest'
import { TAG_REBALANCE_AT_RISK } from '../../lambdas/core/constants.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import { createHandler } from '../../lambdas/interruption/create-handler.ts'
import * as events from '../events/builders.ts'
import { FakeCloud } from '../fakes/fake-cloud.ts'
import { seedConvertedGroup, TERMINATING_HOOK, type TestTelemetry, testDeps } from './support.ts'

const setup = (tags?: Record<string, string>) => {
  const cloud = new FakeCloud('us-east-1')
  const { ids } = seedConvertedGroup(cloud, { hooks: [TERMINATING_HOOK], ...(tags ? { tags } : {}) })
  const deps = testDeps([cloud])
  return { cloud, ids, handler: createHandler(deps), telemetry: deps.telemetry }
}
const named = (telemetry: TestTelemetry, name: string) =>
  telemetry.emitted().filter((metric) => metric.name === name)
const perGroup = { Region: 'us-east-1', Group: 'web' }

describe('interruption handler telemetry', () => {
  it('counts a handled interruption and each action taken, per region and group', async () => {
    const { ids, handler, telemetry } = setup()
    await handler(events.spotInterruptionWarning({ instanceId: ids[0] as string, region: 'us-east-1' }), {})

    expect(named(telemetry, Metric.InterruptionsHandled)).toEqual([
      { name: 'InterruptionsHandled', unit: 'Count', value: 1, dimensions: perGroup },
    ])
    expect(named(telemetry, Metric.InterruptionActions).map((m) => m.dimensions)).toEqual([
      { ...perGroup, Action: 'untag-instance' },
      { ...perGroup, Action: 'terminate-in-group' },
    ])
    expect(named(telemetry, Metric.InterruptionHandlerDurationMs)).toEqual([
      expect.objectContaining({ unit: 'Milliseconds', dimensions: perGroup, value: expect.any(Number) }),
    ])
    expect(named(telemetry, Metric.IgnoredEvents)).toEqual([])
  })

  it('counts, per region, a marker on the instance that did not verify, and warns of it', async () => {
    const { cloud, ids, handler, telemetry } = setup()
    const member = cloud.instances.get(ids[0] as string)
    // Planted by someone who can tag instances: no MAC, so it is read as absent and reported.
    if (member !== undefined)
      member.tags = { ...member.tags, [TAG_REBALANCE_AT_RISK]: '2026-01-01T00:00:00.000Z' }
    await handler(events.spotInterruptionWarning({ instanceId: ids[0] as string, region: 'us-east-1' }), {})
    expect(named(telemetry, Metric.ForgedMarkers)).toEqual([
      { name: 'ForgedMarkers', unit: 'Count', value: 1, dimensions: { Region: 'us-east-1' } },
    ])
    expect(telemetry.logs().filter((line) => line.message === 'marker not believed')).toHaveLength(1)
  })

  it('counts no forged marker when every marker read was signed', async () => {
    const { ids, handler, telemetry } = setup()
    await handler(events.spotInterruptionWarning({ instanceId: ids[0] as string, region: 'us-east-1' }), {})
    expect(named(telemetry, Metric.ForgedMarkers)).toEqual([])
  })

  it('counts a rebalance recommendation under its own metric', async () => {
    const { ids, handler, telemetry } = setup()
    await handler(events.rebalanceRecommendation({ instanceId: ids[0] as string, region: 'us-east-1' }), {})
    expect(named(telemetry, Metric.RebalanceRecommendationsHandled)).toEqual([
      expect.objectContaining({ value: 1, dimensions: perGroup }),
    ])
    expect(named(telemetry, Metric.InterruptionActions).map((m) => m.dimensions.Action)).toEqual([
      'request-replacement',
    ])
    expect(named(telemetry, Metric.InterruptionsHandled)).toEqual([])
  })

  it('counts a duplicate for a managed group as handled, with no action', async () => {
    const { ids, handler, telemetry } = setup()
    const event = events.spotInterruptionWarning({ instanceId: ids[0] as string, region: 'us-east-1' })
    await handler(event, {})
    await handler(event, {})
    expect(named(telemetry, Metric.InterruptionsHandled)).toHaveLength(2)
    expect(named(telemetry, Metric.InterruptionActions)).toHaveLength(2)
  })

  it.each([
    ['an unrecognized event', () => events.scheduledEvent({ region: 'us-east-1' }), 'us-east-1'],
    ['a malformed event', () => ({}), 'unknown'],
    [
      'an instance in no group',
      () => events.spotInterruptionWarning({ instanceId: 'i-0aaaaaaaaaaaaaaa0', region: 'us-east-1' }),
      'us-east-1',
    ],
  ])('counts %s as ignored, per region, and nothing as handled', async (_name, event, region) => {
    const { handler, telemetry } = setup()
    await handler(event(), {})
    expect(named(telemetry, Metric.IgnoredEvents)).toEqual([
      expect.objectContaining({ value: 1, dimensions: { Region: region } }),
    ])
    expect(named(telemetry, Metric.InterruptionsHandled)).toEqual([])
  })

  it('logs one structured line per event with what was decided and done', async () => {
    const { ids, handler, telemetry } = setup()
    const [doomed] = ids as [string]
    await handler(
      events.spotInterruptionWarning({ instanceId: doomed, region: 'us-east-1', id: 'evt-1' }),
      {},
    )
    const lines = telemetry.logs().filter((line) => line.message === 'interruption event')
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'INFO',
        eventId: 'evt-1',
        kind: 'spot-interruption',
        instanceId: doomed,
        group: 'web',
        outcome: 'acted',
        reason: 'interrupted-member',
        actions: [
          expect.objectContaining({ kind: 'untag-instance' }),
          expect.objectContaining({ kind: 'terminate-in-group' }),
        ],
        durationMs: expect.any(Number),
      }),
    ])
  })

  it('reports an invalid group tag once, naming the group, and counts it', async () => {
    const { ids, handler, telemetry } = setup({
      'spot-enabled': 'true',
      autospotting_rebalance_action: 'sometimes',
    })
    await handler(events.rebalanceRecommendation({ instanceId: ids[0] as string, region: 'us-east-1' }), {})
    expect(telemetry.logs().filter((line) => line.name === 'autospotting_rebalance_action')).toEqual([
      expect.objectContaining({
        level: 'WARN',
        group: 'web',
        value: 'sometimes',
        expected: expect.stringContaining('replace'),
      }),
    ])
    expect(named(telemetry, Metric.ConfigErrors)).toEqual([expect.objectContaining({ dimensions: perGroup })])
  })
})
