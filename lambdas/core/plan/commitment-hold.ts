/**
 * Members a commitment pays for: kept on demand while replacing them would leave a Reserved Instance,
 * Savings Plan or Capacity Reservation unused (core/commitments/coverage.ts), and weighed against a spot
 * replacement at what they cost after commitments, not at their list price.
 */

import { coverageDetail, type MemberCoverage } from '../commitments/coverage.ts'
import type { Instance } from '../types.ts'
import type { PlanInput } from './plan-input.ts'
import type { InstanceSkip } from './reasons.ts'
import type { RankedCandidate } from './selection.ts'

/** The coverage of an on-demand member, when a commitment pays for any of it. */
export const coverageOf = (input: PlanInput, instance: Instance): MemberCoverage | undefined =>
  instance.lifecycle === 'on-demand' ? input.commitments?.get(instance.id) : undefined

export const commitmentSkip = (instanceId: string, coverage: MemberCoverage, why = ''): InstanceSkip =>
  coverage.unreadable === undefined
    ? {
        instanceId,
        code: 'commitment-covered',
        reason: `commitment-covered: ${coverageDetail(coverage)}${why}`,
      }
    : {
        instanceId,
        code: 'commitment-unreadable',
        reason: `commitment-unreadable: the Savings Plans could not be read (${coverage.unreadable}), and no other commitment pays for all of it: held this run`,
      }

/** Candidates cheaper than what the member costs after commitments, within the group's price multiplier. */
export const cheaperThanCovered = (
  ranked: readonly RankedCandidate[],
  coverage: MemberCoverage,
  multiplier: number,
): readonly RankedCandidate[] => ranked.filter((c) => c.spotPriceUsd < coverage.effectiveRateUsd * multiplier)
