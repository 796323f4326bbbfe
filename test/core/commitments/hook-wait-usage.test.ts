/**
 * A member a lifecycle hook holds (Pending:Wait, Terminating:Wait) runs, billed, and a Reserved Instance
 * applies to it as to any matching running instance: it takes commitments as the simulator bills them
 * (tools/sim/commitment-liveness.ts), so the engine keeps no member in service for a commitment it uses.
 */
import { describe, expect, it } from 'vitest'
import { regionCoverage, regionUsage } from '../../../lambdas/core/commitments/region-usage.ts'
import { commitments, laneInput, ri, listedRunning as running } from '../../builders/commitments.ts'
import { aGroup, anInstance, memberOf, minutesAgo } from '../../builders/world.ts'

const older = anInstance({ type: 'm5.large', launchTime: minutesAgo(60) })
const newer = anInstance({ type: 'm5.large', launchTime: minutesAgo(30) })
const held = anInstance({ type: 'm5.large', launchTime: minutesAgo(5) })

/** The members of the run's group that two m5.large Reserved Instances cover. */
const covered = (state: string, listed = false) => {
  const group = aGroup([memberOf(older), memberOf(newer), memberOf(held, { lifecycleState: state })])
  const input = listed ? laneInput([], [group], []) : laneInput([group], [group], [older, newer, held])
  const lines = regionUsage(input, listed ? [older, newer, held].map((i) => running(i, group.name)) : [])
  const map = regionCoverage(
    lines,
    commitments({ reservedInstances: [ri('ri-1', 'm5.large', { count: 2 })] }),
  )
  return [...(map?.keys() ?? [])].sort()
}

describe('commitment usage of members a lifecycle hook holds', () => {
  it.each(['Pending:Wait', 'Terminating:Wait'])('counts a member in %s of the run’s own group', (state) => {
    expect(covered(state)).toEqual([held.id, newer.id].sort())
  })

  it.each(['Pending:Wait', 'Terminating:Wait'])('counts a member in %s of another lane’s group', (state) => {
    expect(covered(state, true)).toEqual([held.id, newer.id].sort())
  })

  it('does not count a member Auto Scaling is terminating without a hook', () => {
    expect(covered('Terminating')).toEqual([newer.id, older.id].sort())
  })
})
