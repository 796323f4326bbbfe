import { describe, expect, it } from 'vitest'
import { commitmentPolicyFigures } from '../../tools/bench/commitment-figures.ts'

const commitments = {
  billUsd: 60,
  baselineBillUsd: 100,
  billSavingsPct: 40,
  commitmentFeesUsd: 30,
  commitmentWasteUsd: 0.5,
  baselineCommitmentWasteUsd: 0.25,
}

describe('commitmentPolicyFigures', () => {
  it('charges the unserved capacity against the real bill as fair savings charge it against the list price', () => {
    // One point of a $200 on-demand cost left unserved: $2, two points of the $100 bill on demand.
    const totals = { savingsPct: 50, fairSavingsPct: 49, onDemandOnlyCostUsd: 200 }
    expect(commitmentPolicyFigures({ commitments, totals })).toEqual({
      billSavingsPct: 40,
      fairBillSavingsPct: 38,
      commitmentWasteUsd: 0.5,
      unavoidableCommitmentWasteUsd: 0.25,
    })
  })

  it('has nothing to add on a scenario without commitments', () => {
    const totals = { savingsPct: 50, fairSavingsPct: 50, onDemandOnlyCostUsd: 200 }
    expect(commitmentPolicyFigures({ totals })).toEqual({})
  })
})
