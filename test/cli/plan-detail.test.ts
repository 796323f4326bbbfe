import { describe, expect, it } from 'vitest'
import type { PlanReport } from '../../tools/cli/plan-report.ts'
import { group, rawScenario, testWorld } from '../sim/support.ts'
import { runPlan, simPlanDeps } from './plan-sim.ts'

const denied = () =>
  Promise.reject(
    Object.assign(new Error('not authorized to perform pricing:GetProducts'), {
      name: 'AccessDeniedException',
    }),
  )

describe('spotswap plan, per instance', () => {
  it('shows each instance it would replace with its type and the ranked candidates with their prices', async () => {
    const tags = { 'spot-enabled': 'true', autospotting_max_replacements_in_flight: '2' }
    const sim = testWorld(rawScenario([group('web', { desired: 4, instanceType: 'm5.large', tags })]))
    const { code, out } = await runPlan(simPlanDeps(sim), ['--region', 'us-east-1'])
    expect(code).toBe(0)
    const lines = out.split('\n')
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(120)
    const replaced = lines.flatMap((line, i) => (/^ {4}i-\S+ m5\.large \(/.test(line) ? [i] : []))
    expect(replaced.length).toBeGreaterThan(0)
    for (const i of replaced) {
      expect(lines[i]).toMatch(/^ {4}i-\S+ m5\.large \(\$\d+\.\d{4}\/h on-demand, us-east-1[a-z]\)$/)
      expect(lines[i + 1]).toMatch(
        /^ {6}→ [a-z0-9.]+ \$\d+\.\d{4}( \[[a-z,]+\])?(, [a-z0-9.]+ \$\d+\.\d{4}( \[[a-z,]+\])?){2,4}(, \+\d+ more)?$/,
      )
    }
    expect(out).toContain('  us-east-1 web\n')
    // The members waiting for the group's in-flight budget: said why.
    expect(out).toMatch(/^ {4}i-\S+ stays on-demand \(m5\.large, us-east-1[a-z]\): in-flight-budget: /m)
    expect(out).not.toContain('estimated')
  })

  it('lists the candidates with their prices in --json, cheapest expected first', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 4 })]))
    const { out } = await runPlan(simPlanDeps(sim), ['--region', 'us-east-1', '--json'])
    const report = JSON.parse(out) as PlanReport
    const web = report.regions[0]?.groups.find((g) => g.group === 'web')
    const [launch] = web?.launches ?? []
    expect(launch).toMatchObject({ currentType: 'm5.large', onDemandPriceUsd: expect.any(Number) })
    expect(launch?.candidates.length).toBeGreaterThan(1)
    for (const candidate of launch?.candidates ?? [])
      expect(candidate).toMatchObject({ instanceType: expect.any(String), spotPriceUsd: expect.any(Number) })
    expect(web?.savingsEstimated).toBe(false)
  })

  it('says the savings are estimated when the Pricing API gives nothing and the embedded table is used', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 4 })]))
    const deps = simPlanDeps(sim, (clients) => ({ ...clients, pricing: { getProducts: denied } }))
    const { code, out } = await runPlan(deps, ['--region', 'us-east-1'])
    expect(code).toBe(0)
    expect(out).toMatch(/^us-east-1\s+web\s.*\$\d+\.\d{2}\*\s*$/m)
    expect(out).toMatch(/Projected savings once done: .*\/month \(\*includes estimates\)/)
    expect(out).toContain(
      '* estimated: no Pricing API answer for Linux/UNIX; on-demand prices are the embedded',
    )
  })

  it('marks candidates of another CPU maker or generation, and says what the marks mean', async () => {
    const sim = testWorld(rawScenario([group('web', { desired: 4, instanceType: 'm5.large' })]))
    const { out } = await runPlan(simPlanDeps(sim), ['--region', 'us-east-1'])
    // m6id.large (sixth generation) for an m5.large (fifth): flagged, and the legend printed once.
    expect(out).toMatch(/m6id\.large \$\d+\.\d{4} \[gen\]/)
    expect(out.match(/\[cpu\]: another CPU maker/g)).toHaveLength(1)
  })

  it('prints no flag legend when every candidate keeps the maker and generation', async () => {
    const sim = testWorld(
      rawScenario([
        group('web', {
          desired: 4,
          instanceType: 'm5.large',
          tags: {
            'spot-enabled': 'true',
            autospotting_allow_cpu_vendor_change: 'false',
            autospotting_allow_generation_change: 'false',
          },
        }),
      ]),
    )
    const { out } = await runPlan(simPlanDeps(sim), ['--region', 'us-east-1'])
    expect(out).not.toMatch(/\[(cpu|gen)/)
  })
})
