/**
 * Instance size normalization, as AWS applies regional Reserved Instances within a family
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/apply_ri.html): nano 0.25, micro 0.5, small 1,
 * medium 2, large 4, xlarge 8, then 8 per `x` (2xlarge 16, ..., 48xlarge 384).
 */

import { LINUX } from '../platform.ts'
import type { Tenancy } from './types.ts'

const NAMED: Readonly<Record<string, number>> = {
  nano: 0.25,
  micro: 0.5,
  small: 1,
  medium: 2,
  large: 4,
  xlarge: 8,
}

/**
 * Families whose regional RIs are not size-flexible (apply_ri lists them): their RIs match the exact size,
 * like Windows, RHEL, SUSE and dedicated ones.
 */
const NOT_FLEXIBLE_FAMILIES: ReadonlySet<string> = new Set(['g4ad', 'g4dn', 'g5', 'g5g', 'inf1'])

/** `m5.2xlarge` → `m5`. */
export const familyOf = (type: string): string => type.slice(0, Math.max(0, type.indexOf('.')))

/**
 * The normalization factor of a type's size; undefined for a size without one (`metal`, whose factor
 * depends on the family): such a type is matched by its exact size only.
 */
export const normalizationFactor = (type: string): number | undefined => {
  const size = type.slice(type.indexOf('.') + 1)
  const named = NAMED[size]
  if (named !== undefined) return named
  const match = /^(\d+)xlarge$/.exec(size)
  return match?.[1] === undefined ? undefined : Number(match[1]) * 8
}

/**
 * Size flexibility: a regional RI for Linux/UNIX with default tenancy, of a family that has it, applies to
 * any size of its family by normalization factor (apply_ri).
 */
export const isSizeFlexible = (
  scope: 'zonal' | 'regional',
  type: string,
  platform: string,
  tenancy: Tenancy,
): boolean =>
  scope === 'regional' &&
  platform === LINUX &&
  tenancy === 'default' &&
  !NOT_FLEXIBLE_FAMILIES.has(familyOf(type)) &&
  normalizationFactor(type) !== undefined
