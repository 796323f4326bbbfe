/**
 * How raw strings (environment variables, tag values) become configuration values. Every parser returns
 * either the value or what was expected, never throws, and is strict: `1e3`, `NaN` and ` 5%` are refused.
 */
import { MAX_GLOB_WILDCARDS, MAX_MIN_ON_DEMAND_NUMBER } from '../constants.ts'
import { type CronSchedule, isTimeZone, parseCronSchedule } from './cron.ts'
import { isValidGlob, splitList, wildcardCount } from './glob.ts'

export type InFlightLimit =
  | { readonly kind: 'count'; readonly value: number }
  | { readonly kind: 'percent'; readonly value: number }
  /** A share of a group judged beyond `InService` (load balancers, ECS), else the whole group (group-sizes.ts). */
  | { readonly kind: 'auto' }

export interface TagFilter {
  readonly key: string
  /** A glob. */
  readonly value: string
}

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly expected: string }
export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value })
export const bad = <T>(expected: string): Parsed<T> => ({ ok: false, expected })

export const parseInteger =
  (min: number, max: number) =>
  (raw: string): Parsed<number> => {
    const trimmed = raw.trim()
    if (!/^\d+$/.test(trimmed)) return bad(`an integer from ${min} to ${max}`)
    const value = Number(trimmed)
    return value >= min && value <= max ? ok(value) : bad(`an integer from ${min} to ${max}`)
  }

export const parseDecimal =
  (min: number, max: number, minExclusive = false) =>
  (raw: string): Parsed<number> => {
    const trimmed = raw.trim()
    const expected = `a number ${minExclusive ? 'above' : 'from'} ${min} ${minExclusive ? 'up to' : 'to'} ${max}`
    if (!/^\d+(\.\d+)?$|^\.\d+$/.test(trimmed)) return bad(expected)
    const value = Number(trimmed)
    const aboveMin = minExclusive ? value > min : value >= min
    return aboveMin && value <= max ? ok(value) : bad(expected)
  }

export const parseEnum =
  <T extends string>(values: readonly T[]) =>
  (raw: string): Parsed<T> => {
    const value = raw.trim().toLowerCase()
    return (values as readonly string[]).includes(value) ? ok(value as T) : bad(`one of ${values.join(', ')}`)
  }

/** Part of every glob setting's expected text, so a glob refused for its wildcards says why. */
const WILDCARD_LIMIT = `at most ${MAX_GLOB_WILDCARDS} wildcards (* or ?) per glob`

export const parseTypeGlobs = (raw: string): Parsed<readonly string[]> => {
  const items = splitList(raw)
  // Separators and nothing else (`,` or `, ,`) would silently mean "no list": refuse it like a blank tag.
  if (items.length === 0 && raw.trim() !== '') {
    return bad(
      'a non-empty value: instance type globs such as m5.*,c6i.large or current (got only separators)',
    )
  }
  const invalid = items.filter((item) => item !== 'current' && !isValidGlob(item))
  return invalid.length === 0
    ? ok(items)
    : bad(
        `comma- or space-separated instance type globs such as m5.*,c6i.large or current, ${WILDCARD_LIMIT} (bad: ${invalid.join(' ')})`,
      )
}

export const parseInFlight = (raw: string): Parsed<InFlightLimit> => {
  const trimmed = raw.trim()
  const expected = `auto, a count from 1 to ${MAX_MIN_ON_DEMAND_NUMBER} (e.g. 3) or a percentage above 0% up to 100% (e.g. 25%)`
  if (trimmed.toLowerCase() === 'auto') return ok({ kind: 'auto' })
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(trimmed)
  if (percent?.[1] !== undefined) {
    const value = Number(percent[1])
    return value > 0 && value <= 100 ? ok({ kind: 'percent', value }) : bad(expected)
  }
  if (/^\d+$/.test(trimmed) && Number(trimmed) >= 1 && Number(trimmed) <= MAX_MIN_ON_DEMAND_NUMBER) {
    return ok({ kind: 'count', value: Number(trimmed) })
  }
  return bad(expected)
}

export const parseTimezone = (raw: string): Parsed<string> => {
  const value = raw.trim()
  return isTimeZone(value) ? ok(value) : bad('an IANA time zone such as Europe/Berlin or UTC')
}

export const parseCron = (raw: string): Parsed<CronSchedule> => {
  const schedule = parseCronSchedule(raw)
  return schedule
    ? ok(schedule)
    : bad("'<hours> <days-of-week>' such as '9-18 1-5' or '* *' (hours 0-23, days 0-6, 0 = Sunday)")
}

export const parseTagFilters = (raw: string): Parsed<readonly TagFilter[]> => {
  const expected = `comma-separated key=value pairs such as 'spot-enabled=true,team=web*', ${WILDCARD_LIMIT}`
  const pairs = raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
  if (pairs.length === 0) return bad(expected)
  const filters: TagFilter[] = []
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq <= 0) return bad(expected)
    const key = pair.slice(0, eq).trim()
    const value = pair.slice(eq + 1).trim()
    if (key.length === 0 || key.length > 128 || value.length === 0 || !isValidGlob(value))
      return bad(expected)
    filters.push({ key, value })
  }
  return ok(filters)
}

const REGION_GLOB = /^[a-z0-9*?-]+$/

export const parseRegions = (raw: string): Parsed<readonly string[]> => {
  const items = splitList(raw)
  const invalid = items.filter((item) => !REGION_GLOB.test(item) || wildcardCount(item) > MAX_GLOB_WILDCARDS)
  return invalid.length === 0
    ? ok(items)
    : bad(`region names or globs such as us-east-1,eu-*, ${WILDCARD_LIMIT} (bad: ${invalid.join(' ')})`)
}

export const parseBoolean = (raw: string): Parsed<boolean> => {
  const value = raw.trim().toLowerCase()
  if (value === 'true') return ok(true)
  if (value === 'false' || value === '') return ok(false)
  return bad('true or false')
}

// https://docs.aws.amazon.com/powertools/typescript/latest/api/variables/_aws-lambda-powertools_logger.index.LogLevel.html
/** Powertools' log levels (its `LogLevel`), which it reads from LOG_LEVEL in any case. */
export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const

export const parseLogLevel = (raw: string): Parsed<(typeof LOG_LEVELS)[number]> => {
  const value = raw.trim().toUpperCase()
  return (LOG_LEVELS as readonly string[]).includes(value)
    ? ok(value as (typeof LOG_LEVELS)[number])
    : bad(`one of ${LOG_LEVELS.join(', ')}`)
}
