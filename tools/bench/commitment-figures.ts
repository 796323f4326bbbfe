/** results.json's commitment fields of one policy, on a scenario with commitments (nothing otherwise). */
import type { GlobalConfig } from '../../lambdas/core/config/config.ts'
import type { Catalog } from '../../lambdas/core/types.ts'
import type { CommitmentFigures } from '../sim/report.ts'
import type { Scenario } from '../sim/scenario/types.ts'
import { commitmentOracleFigures } from './oracle-commitments.ts'
import type { PolicyFigures } from './results.ts'

type CommitmentFields = Pick<
  PolicyFigures,
  'billSavingsPct' | 'commitmentWasteUsd' | 'unavoidableCommitmentWasteUsd'
>

export const commitmentPolicyFigures = (figures: CommitmentFigures | undefined): CommitmentFields =>
  figures === undefined
    ? {}
    : {
        billSavingsPct: figures.billSavingsPct,
        commitmentWasteUsd: figures.commitmentWasteUsd,
        unavoidableCommitmentWasteUsd: figures.baselineCommitmentWasteUsd,
      }

export const commitmentOracle = (
  scenario: Scenario,
  config: GlobalConfig,
  catalog: Catalog,
): CommitmentFields => {
  const figures = commitmentOracleFigures(scenario, config, catalog)
  return figures === undefined ? {} : { billSavingsPct: figures.billSavingsPct }
}
