/** results.json's commitment fields of one policy, on a scenario with commitments (nothing otherwise). */
import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import type { Catalog } from '../../lambdas/core/types.ts'
import type { CommitmentFigures, SimulationReport } from '../sim/report.ts'
import type { Scenario } from '../sim/scenario/types.ts'
import { commitmentOracleFigures } from './oracle-commitments.ts'
import type { PolicyFigures } from './results.ts'

type CommitmentFields = Pick<
  PolicyFigures,
  | 'billSavingsPct'
  | 'fairBillSavingsPct'
  | 'zoneBalancedOracleBillSavingsPct'
  | 'commitmentWasteUsd'
  | 'unavoidableCommitmentWasteUsd'
>

type ReportTotals = Pick<SimulationReport['totals'], 'savingsPct' | 'fairSavingsPct' | 'onDemandOnlyCostUsd'>

const round2 = (value: number): number => Math.round(value * 100) / 100

/**
 * The unserved capacity's charge, which separates fair savings from savings against the list price, taken
 * off the savings against the real bill: the same dollars, over the bill on demand with the commitments.
 */
const fairBillSavings = (figures: CommitmentFigures, totals: ReportTotals): number => {
  const unservedUsd = ((totals.savingsPct - totals.fairSavingsPct) / 100) * totals.onDemandOnlyCostUsd
  return figures.baselineBillUsd > 0
    ? round2(figures.billSavingsPct - (100 * unservedUsd) / figures.baselineBillUsd)
    : figures.billSavingsPct
}

export const commitmentPolicyFigures = (report: {
  readonly commitments?: CommitmentFigures | undefined
  readonly totals: ReportTotals
}): CommitmentFields => {
  const figures = report.commitments
  return figures === undefined
    ? {}
    : {
        billSavingsPct: figures.billSavingsPct,
        fairBillSavingsPct: fairBillSavings(figures, report.totals),
        commitmentWasteUsd: figures.commitmentWasteUsd,
        unavoidableCommitmentWasteUsd: figures.baselineCommitmentWasteUsd,
      }
}

export const commitmentOracle = (
  scenario: Scenario,
  config: GlobalConfig,
  catalog: Catalog,
): CommitmentFields => {
  const figures = commitmentOracleFigures(scenario, config, catalog)
  const balanced = commitmentOracleFigures(scenario, config, catalog, 'zone-balanced')
  return figures === undefined
    ? {}
    : {
        billSavingsPct: figures.billSavingsPct,
        // The oracle serves every desired instance at every moment.
        fairBillSavingsPct: figures.billSavingsPct,
        commitmentWasteUsd: figures.commitmentWasteUsd,
        ...(balanced === undefined ? {} : { zoneBalancedOracleBillSavingsPct: balanced.billSavingsPct }),
      }
}
