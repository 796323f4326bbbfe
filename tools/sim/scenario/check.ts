/**
 * Scenario problems, each with its path, what was expected and what was found, collected rather than
 * thrown one at a time: the schema's (schema-problems.ts) and the rules it cannot state (parse*.ts).
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

export class Problems {
  readonly list: ScenarioProblem[] = []

  fail(path: string, expected: string, value: unknown): void {
    this.list.push({ path, expected, got: describeValue(value) })
  }

  /**
   * A time the schema's pattern passed, as epoch milliseconds; NaN, with a problem, when it is no
   * date at all (`2022-13-45T...`), which a pattern cannot tell.
   */
  time(path: string, text: string): number {
    const ms = Date.parse(text)
    if (Number.isNaN(ms)) this.fail(path, 'an existing date and time', text)
    return ms
  }
}
