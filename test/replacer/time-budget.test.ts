/**
 * A region run knows when Lambda will stop it (its context's remaining time) and starts no write once less
 * than the margin for one write step is left: the rest is the next run's, as after a crash at that point.
 */
import { describe, expect, it } from 'vitest'
import { REPLACER_WRITE_MARGIN_SECONDS } from '../../lambdas/core/constants.ts'
import { Metric } from '../../lambdas/core/metric-names.ts'
import { timeBudgetSkip } from '../../lambdas/core/region/time-budget.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness } from './support.ts'

/** Lambda's context with `seconds` left when the invocation starts. */
const lambdaContext = (seconds: number) => ({ getRemainingTimeInMillis: () => seconds * 1000 })

/** Each CreateFleet takes `seconds` of the run's time (an instant fleet answers once it launched). */
const slowLaunches = (cloud: FakeCloud, h: ReturnType<typeof harness>, seconds: number) => {
  const launch = cloud.launchSpot.bind(cloud)
  cloud.launchSpot = async (request) => {
    h.advanceSeconds(seconds)
    return launch(request)
  }
}

const launches = (cloud: FakeCloud) => cloud.mutations.filter((c) => c.method === 'launchSpot').length

describe('a region run’s time budget', () => {
  // 12 on-demand members and a quarter in flight: three launches planned in one run.
  const env = { MAX_REPLACEMENTS_IN_FLIGHT: '25%' }

  it('starts no launch once less than the write margin is left before Lambda stops it', async () => {
    const cloud = cloudWithFleet(12)
    const h = harness({ 'us-east-1': cloud }, env)
    slowLaunches(cloud, h, 25)
    const summary = await h.run(undefined, lambdaContext(60))
    // 60 s left: the first launch; 35 s: the second; 10 s, under the margin: no third.
    expect(launches(cloud)).toBe(2)
    const web = summary.regions[0]?.groups?.find((g) => g.group === 'web')
    expect(web?.timeBudget).toMatchObject({ code: 'time-budget' })
    expect(h.recorded.logs.some((l) => l.message === 'time budget spent: writes left to the next run')).toBe(
      true,
    )
    const counted = h.recorded.metrics
      .flatMap((m) => m.values)
      .find((v) => v.name === Metric.GroupsPastTimeBudget)
    expect(counted?.value).toBe(1)
  })

  it('leaves what it did not start to the next run', async () => {
    const cloud = cloudWithFleet(12)
    const h = harness({ 'us-east-1': cloud }, env)
    slowLaunches(cloud, h, 25)
    await h.run(undefined, lambdaContext(60))
    h.advanceMinutes(5)
    const next = await h.run(undefined, lambdaContext(60))
    expect(launches(cloud)).toBeGreaterThan(2)
    expect(next.regions[0]?.error).toBeUndefined()
  })

  it('makes every planned launch when the time left covers them', async () => {
    const cloud = cloudWithFleet(12)
    const h = harness({ 'us-east-1': cloud }, env)
    slowLaunches(cloud, h, 25)
    await h.run(undefined, lambdaContext(120))
    expect(launches(cloud)).toBe(3)
  })

  it('has no deadline without Lambda’s context (a local run)', async () => {
    const cloud = cloudWithFleet(12)
    const h = harness({ 'us-east-1': cloud }, env)
    slowLaunches(cloud, h, 25)
    await h.run()
    expect(launches(cloud)).toBe(3)
  })

  it.each([
    [REPLACER_WRITE_MARGIN_SECONDS * 1000, undefined],
    [REPLACER_WRITE_MARGIN_SECONDS * 1000 - 1, 'time-budget'],
    [-5_000, 'time-budget'],
  ])('with %i ms left: %s', (leftMs, code) => {
    expect(timeBudgetSkip(leftMs)?.code).toBe(code)
  })
})
