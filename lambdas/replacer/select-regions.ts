/** Which regions a run covers: REGIONS globs expanded against the account's enabled regions. */
import { matchesAny } from '../core/config/glob.ts'
import type { RegionDirectory } from '../core/port.ts'

export interface RegionSelection {
  readonly regions: string[]
  /** Patterns that matched no enabled region: probably a typo, worth a warning. */
  readonly unmatched: string[]
}

export const selectRegions = async (
  patterns: readonly string[],
  directory: RegionDirectory,
): Promise<RegionSelection> => {
  const literal = patterns.length > 0 && patterns.every((p) => !/[*?]/.test(p))
  // Literal names need no DescribeRegions call; an opt-in region that is disabled fails loudly later.
  if (literal) return { regions: [...new Set(patterns)].sort(), unmatched: [] }
  const enabled = await directory.enabledRegions()
  if (patterns.length === 0) return { regions: enabled, unmatched: [] }
  return {
    regions: enabled.filter((region) => matchesAny(region, patterns)),
    unmatched: patterns.filter((p) => !enabled.some((region) => matchesAny(region, [p]))),
  }
}
