import { describe, expect, it } from 'vitest'
import { createPlanCommand } from '../../tools/cli/plan-command.ts'
import type { PlanReport } from '../../tools/cli/plan-report.ts'
import { group, rawScenario, testWorld } from '../sim/support.ts'
import { simPlanDeps } from './plan-sim.ts'
import { recordingIo } from './support.ts'

/** `spotswap plan` over the simulated account, with these environment variables. */
const plan = async (env: Record<string, string>, argv: readonly string[]) => {
  const sim = testWorld(rawScenario([group('web', { desired: 4, instanceType: 'm5.large' })]))
  const { io, output } = recordingIo(env)
  const code = await createPlanCommand(simPlanDeps(sim)).run(['--region', 'us-east-1', ...argv], io)
  return { code, ...output() }
}

const covered = (report: PlanReport) =>
  report.regions.flatMap((r) =>
    r.groups.flatMap((g) => g.stillOnDemand.filter((s) => s.code === 'commitment-covered')),
  )

describe('spotswap plan with declared commitments', () => {
  it('lists the members a declared Reserved Instance pays for, with what covers them', async () => {
    const { code, out } = await plan({ COMMITMENTS: 'ri us-east-1 2 m5.large' }, ['--json'])
    expect(code).toBe(0)
    const kept = covered(JSON.parse(out) as PlanReport)
    expect(kept).toHaveLength(2)
    expect(kept[0]?.detail).toContain(
      'reserved-instances declared-1 (regional m5.large size-flexible ×2, us-east-1',
    )
  })

  it('says so in the text report', async () => {
    const { out } = await plan({ COMMITMENTS: 'ri us-east-1 2 m5.large' }, [])
    expect(out).toMatch(/^ {4}i-\S+ stays on-demand \(m5\.large, us-east-1[a-z]\): commitment-covered/m)
  })

  it('covers nothing with COMMITMENTS=ignore', async () => {
    const { out } = await plan({ COMMITMENTS: 'ignore' }, ['--json'])
    expect(covered(JSON.parse(out) as PlanReport)).toEqual([])
  })

  it('covers nothing with another region’s share of a Compute Savings Plan', async () => {
    const { out } = await plan({ COMMITMENTS: 'sp eu-west-1 5 30%' }, ['--json'])
    expect(covered(JSON.parse(out) as PlanReport)).toEqual([])
  })
})
