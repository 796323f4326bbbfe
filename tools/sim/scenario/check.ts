/**
 * Small validators for untrusted JSON that collect every problem with its path, what was expected and
 * what was found, instead of stopping at the first one.
 */

export interface ScenarioProblem {
  /** JSONPath-like location, e.g. `$.regions["us-east-1"].groups[2].min`. */
  readonly path: string
  readonly expected: string
  readonly got: string
}

export class ScenarioError extends Error {
  override readonly name = 'ScenarioError'
  constructor(
    readonly source: string,
    readonly problems: readonly ScenarioProblem[],
  ) {
    super(
      `${source} is not a valid scenario:\n${problems.map((p) => `  ${p.path}: expected ${p.expected}, got ${p.got}`).join('\n')}`,
    )
  }
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

export const describeValue = (value: unknown): string => {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return `an array of ${value.length}`
  if (typeof value === 'object') return 'an object'
  const text = JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

export const childPath = (path: string, key: string | number): string =>
  typeof key === 'number'
    ? `${path}[${key}]`
    : /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
      ? `${path}.${key}`
      : `${path}[${JSON.stringify(key)}]`

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/

export class Checker {
  readonly problems: ScenarioProblem[] = []

  fail(path: string, expected: string, value: unknown): undefined {
    this.problems.push({ path, expected, got: describeValue(value) })
    return undefined
  }

  object(path: string, value: unknown, known: readonly string[]): JsonObject | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return this.fail(path, 'an object', value)
    for (const key of Object.keys(value)) {
      if (!known.includes(key))
        this.fail(childPath(path, key), `no such field (known: ${known.join(', ')})`, key)
    }
    return value as JsonObject
  }

  /** An object used as a map: any keys, checked by the caller. */
  map(path: string, value: unknown): JsonObject | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return this.fail(path, 'an object', value)
    return value as JsonObject
  }

  array(path: string, value: unknown, minItems = 0): Json[] | undefined {
    if (!Array.isArray(value)) return this.fail(path, 'an array', value)
    if (value.length < minItems) return this.fail(path, `an array of at least ${minItems}`, value)
    return value as Json[]
  }

  string(path: string, value: unknown, pattern?: RegExp, described = 'a string'): string | undefined {
    if (typeof value !== 'string' || value.length === 0)
      return this.fail(path, `a non-empty ${described}`, value)
    if (pattern && !pattern.test(value)) return this.fail(path, described, value)
    return value
  }

  integer(path: string, value: unknown, min: number, max: number): number | undefined {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      return this.fail(path, `an integer from ${min} to ${max}`, value)
    return value
  }

  number(path: string, value: unknown, min: number, max: number, minExclusive = false): number | undefined {
    const aboveMin = typeof value === 'number' && (minExclusive ? value > min : value >= min)
    if (typeof value !== 'number' || !Number.isFinite(value) || !aboveMin || value > max)
      return this.fail(
        path,
        `a number ${minExclusive ? 'above' : 'from'} ${min} ${minExclusive ? 'up to' : 'to'} ${max}`,
        value,
      )
    return value
  }

  boolean(path: string, value: unknown): boolean | undefined {
    if (typeof value !== 'boolean') return this.fail(path, 'true or false', value)
    return value
  }

  oneOf<T extends string>(path: string, value: unknown, values: readonly T[]): T | undefined {
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value))
      return this.fail(path, `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`, value)
    return value as T
  }

  /** An ISO 8601 time with a zone (`2022-05-31T18:00:00Z`), as epoch milliseconds. */
  time(path: string, value: unknown): number | undefined {
    if (typeof value !== 'string' || !ISO_TIME.test(value) || Number.isNaN(Date.parse(value)))
      return this.fail(path, 'an ISO 8601 time with a zone, e.g. "2022-05-31T18:00:00Z"', value)
    return Date.parse(value)
  }
}
