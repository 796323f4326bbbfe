/**
 * Shell-style globs (`*`, `?`) for instance types, regions and tag values. Hand-rolled because the
 * grammar is tiny and a dependency would bring brace and extglob semantics users never asked for.
 */

const GLOB_CHARS = /^[A-Za-z0-9._:/@+=*?-]+$/

export const isValidGlob = (pattern: string): boolean =>
  pattern.length > 0 && pattern.length <= 128 && GLOB_CHARS.test(pattern)

export const globToRegExp = (pattern: string): RegExp => {
  const body = pattern
    .split('')
    .map((ch) => {
      if (ch === '*') return '.*'
      if (ch === '?') return '.'
      return ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&')
    })
    .join('')
  return new RegExp(`^${body}$`)
}

/** Patterns come from a handful of settings; each is compiled once per container, not once per match. */
const compiled = new Map<string, RegExp>()
const MAX_COMPILED = 10_000

export const matchesGlob = (value: string, pattern: string): boolean => {
  let regex = compiled.get(pattern)
  if (regex === undefined) {
    if (compiled.size >= MAX_COMPILED) compiled.clear()
    regex = globToRegExp(pattern)
    compiled.set(pattern, regex)
  }
  return regex.test(value)
}

export const matchesAny = (value: string, patterns: readonly string[]): boolean =>
  patterns.some((pattern) => matchesGlob(value, pattern))

/** Splits `a, b c` into `['a', 'b', 'c']`: AutoSpotting accepted both commas and spaces. */
export const splitList = (raw: string): string[] =>
  raw
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0)
