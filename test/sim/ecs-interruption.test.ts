/**
 * Spot interruptions in an ECS cluster under simulation (the bench's ecs-cluster scenario): a warned member
 * the handler drains stays until its deadline, so ECS starts its service tasks elsewhere first and no
 * service runs below its minimumHealthyPercent.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { simulate } from '../../tools/sim/simulate.ts'
import { parse } from './support.ts'

describe('spot interruptions of ECS members', () => {
  it('keep every service at or above its minimum healthy percent', async () => {
    const raw = JSON.parse(
      readFileSync(new URL('../../bench/scenarios/ecs-cluster.json', import.meta.url), 'utf8'),
    )
    const report = await simulate(parse(raw))
    expect(report.violations).toEqual([])
    // The scenario interrupts spot members; the web service asks for 100 % healthy.
    expect(report.groups.cluster?.ecsServices?.web).toEqual({
      desiredCount: 16,
      belowMinimumHealthyMinutes: 0,
      lowestHealthyPct: 100,
    })
  }, 60_000)
})
