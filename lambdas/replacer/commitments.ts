/**
 * The region's commitment coverage for this run, as COMMITMENTS says: none (`ignore`), the declared
 * commitments of this region, or this account's own (`account`: this version reads none yet, so it
 * behaves as `ignore`; declare them meanwhile).
 */

import type { MemberCoverage } from '../core/commitments/coverage.ts'
import { regionCoverage } from '../core/commitments/region-usage.ts'
import { declaredIn } from '../core/commitments/setting.ts'
import type { GlobalConfig } from '../core/config/config.ts'
import type { RegionSnapshot } from './observe.ts'

export const commitmentCoverage = (
  config: GlobalConfig,
  snapshot: RegionSnapshot,
): ReadonlyMap<string, MemberCoverage> | undefined => {
  const setting = config.commitments
  if (setting?.mode !== 'declared') return undefined
  return regionCoverage(snapshot, declaredIn(setting.declared, snapshot.region))
}
