/**
 * Shell-style globs (`*`, `?`) for instance types, regions and tag values. Hand-rolled because the
 * grammar is tiny and a dependency would bring brace and extglob semantics users never asked for.
 *
 * Matched by a loop, not a regular expression: a backtracking engine given `^.*.*…b$` tries every way to
 * share the value among the stars, and fourteen stars before a letter took 10 s to fail on a
 * 20-character value, enough for one tag to stall a region. `*` matches any run of characters, `/`
 * included; `?` exactly one (one UTF-16 code unit); neither matches a line break, as the `.` they used to
 * compile to did not. Everything else matches itself, case-sensitively, and the whole value must match.
 */
import { MAX_GLOB_WILDCARDS } from '../constants.ts'

const GLOB_CHARS = /^[A-Za-z0-9._:/@+=*?-]+$/
const STAR = 0x2a
const QUESTION_MARK = 0x3f

/** `*` and `?` in `pattern`. */
export const wildcardCount = (pattern: string): number => {
  let count = 0
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i)
    if (code === STAR || code === QUESTION_MARK) count++
  }
  return count
}

export const isValidGlob = (pattern: string): boolean =>
  pattern.length > 0 &&
  pattern.length <= 128 &&
  GLOB_CHARS.test(pattern) &&
  wildcardCount(pattern) <= MAX_GLOB_WILDCARDS

/** The characters a regular expression's `.` does not match: a wildcard does not either. */
const isLineBreak = (code: number): boolean =>
  code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029

/** Counts the matcher's loop iterations, for tests that bound its work. */
interface GlobWork {
  steps: number
}

/**
 * Two cursors; on a mismatch, back to the last `*` with one more character given to it. Only the last
 * star is retried: it can absorb whatever an earlier one could, so retrying those finds nothing new; and
 * when it would have to absorb a line break, no star can, so the value does not match. Each star is
 * retried from at most n + 1 places and each retry walks at most the pattern up to the next star, so for
 * a value of n and a pattern of m characters the loops run at most (n + 1) × (m + 1) times: O(n·m), with
 * no exponential case.
 */
const scan = (value: string, pattern: string, work: GlobWork | undefined): boolean => {
  let v = 0
  let p = 0
  /** The last `*` seen in the pattern (-1: none yet) and where in the value its match ends. */
  let star = -1
  let starEnd = 0
  while (v < value.length) {
    if (work !== undefined) work.steps++
    const want = pattern.charCodeAt(p) // NaN past the end of the pattern: equal to nothing
    const have = value.charCodeAt(v)
    if (want === STAR) {
      star = p++
      starEnd = v
    } else if (want === have || (want === QUESTION_MARK && !isLineBreak(have))) {
      v++
      p++
    } else if (star >= 0 && !isLineBreak(value.charCodeAt(starEnd))) {
      starEnd++
      v = starEnd
      p = star + 1
    } else {
      return false
    }
  }
  while (pattern.charCodeAt(p) === STAR) {
    if (work !== undefined) work.steps++
    p++
  }
  return p === pattern.length
}

export const matchesGlob = (value: string, pattern: string): boolean => scan(value, pattern, undefined)

/** matchesGlob, and how many steps it took (at most (value length + 1) × (pattern length + 1)). */
export const matchesGlobCountingSteps = (
  value: string,
  pattern: string,
): { readonly matches: boolean; readonly steps: number } => {
  const work = { steps: 0 }
  const matches = scan(value, pattern, work)
  return { matches, steps: work.steps }
}

export const matchesAny = (value: string, patterns: readonly string[]): boolean =>
  patterns.some((pattern) => matchesGlob(value, pattern))

/** Splits `a, b c` into `['a', 'b', 'c']`: AutoSpotting accepted both commas and spaces. */
export const splitList = (raw: string): string[] =>
  raw
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0)
