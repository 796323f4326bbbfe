/** Raw values (environment variables or tags) laid over defaults, each bad one reported and left at its default. */
import type { ConfigError, GroupConfig, InFlightLimit } from './config.ts'
import { GROUP_SETTINGS } from './settings.ts'
import { bad, type Parsed } from './values.ts'

export const describeValue = (value: unknown): string => {
  if (value === undefined) return 'unset'
  if (Array.isArray(value)) return value.length === 0 ? '(empty)' : value.join(',')
  if (typeof value === 'object' && value !== null && 'raw' in value)
    return String((value as { raw: string }).raw)
  if (typeof value === 'object' && value !== null && 'kind' in value) {
    const limit = value as InFlightLimit
    return limit.kind === 'auto' ? 'auto' : limit.kind === 'percent' ? `${limit.value}%` : String(limit.value)
  }
  return String(value)
}

const BLANK_TAG_EXPECTED = 'a non-empty value (remove the tag to use the global default)'

/** Applies overrides from `lookup` (env or tags) on top of `base`, collecting errors per key. */
export const overlay = (
  base: GroupConfig,
  lookup: (envName: string) => { name: string; raw: string } | undefined,
  source: 'env' | 'tag',
  group: string | undefined,
): { config: GroupConfig; errors: ConfigError[] } => {
  const config: Record<string, unknown> = { ...base }
  const errors: ConfigError[] = []
  for (const s of GROUP_SETTINGS) {
    const found = lookup(s.env)
    if (found === undefined) continue
    const blank = found.raw.trim() === ''
    // An empty environment variable means "not set" (CloudFormation cannot omit a variable easily).
    if (source === 'env' && blank) continue
    const read = (s.parse as (raw: string) => Parsed<unknown>)(found.raw)
    // An empty tag is a mistake, not a setting: for the type lists it would silently widen the global
    // allow list to every type (or drop the deny list), so it is refused like any other bad value.
    const parsed = blank && read.ok ? bad<unknown>(BLANK_TAG_EXPECTED) : read
    if (parsed.ok) {
      config[s.key] = parsed.value
    } else {
      errors.push({
        source,
        name: found.name,
        value: found.raw,
        expected: parsed.expected,
        group,
        fallback: describeValue(base[s.key]),
        fatal: false,
      })
    }
  }
  return { config: config as unknown as GroupConfig, errors }
}
