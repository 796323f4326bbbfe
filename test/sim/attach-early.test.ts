import { describe, expect, it } from 'vitest'
import { simulateRun } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario } from './support.ts'

const TARGET_GROUP = { type: 'target-group', healthCheckIntervalSeconds: 30, healthyThreshold: 3 }

describe('a replacement in a group behind a load balancer', () => {
  it('joins once running, not after a 900 s grace period, and its partner retires only once it serves', async () => {
    const web = group('web', {
      desired: 2,
      max: 4,
      healthCheckGracePeriod: 900,
      loadBalancers: [TARGET_GROUP],
    })
    const run = await simulateRun(parse(rawScenario([web])))
    // Launched by the 18:00 run: attached minutes later, where waiting out the grace period took until 18:15.
    expect(run.report.timeline.find((row) => row.spot > 0)?.at).toBe('2022-05-31T18:05:00.000Z')
    expect(run.report.groups.web?.convergenceMinutes).toBeLessThan(10)
    expect(run.serving.byGroupPct.web).toBe(100)
    expect(run.report.violations).toEqual([])
  })
})
