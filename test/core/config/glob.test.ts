import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  isValidGlob,
  matchesAny,
  matchesGlob,
  matchesGlobCountingSteps,
  splitList,
} from '../../../lambdas/core/config/glob.ts'
import { MAX_GLOB_WILDCARDS } from '../../../lambdas/core/constants.ts'

/**
 * The regular-expression matcher globs had until it was replaced (its `*` × 14 then a letter took
 * seconds): the meaning the new matcher keeps, checked against it on inputs small enough for it.
 */
const matchesByRegExp = (value: string, pattern: string): boolean => {
  const body = pattern
    .split('')
    .map((ch) => {
      if (ch === '*') return '.*'
      if (ch === '?') return '.'
      return ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&')
    })
    .join('')
  return new RegExp(`^${body}$`).test(value)
}

const PATTERNS = [
  ...['m5.large', 'm5.*', '*.large', 'm?.large', 'm5*', '*', '**', '?', '*?', '?*', '', 'c6?.*xlarge'],
  ...['eu-*', 'us-*-1', 'spot-enabled', 't*e', 'team/web*', '*/*', 'a+b', 'k:v=x@y', '*a*a*b', 'a*a*a'],
  ...['*-*-*', '??-*', 'web-prod', 'M5.*', 'm5.larg?', '*large', 'a**b', '*?*?*', 'a.b', '(a|b)', '^a$'],
]
const VALUES = [
  ...['m5.large', 'm5a.large', 'M5.large', 'm5.xlarge', 'm5xlarge', 'c6i.8xlarge', 'c6in.24xlarge', ''],
  ...['eu-west-1', 'us-east-1', 'us-gov-west-1', 'true', 'team/web/prod', 'a+b', 'aab', 'k:v=x@y'],
  ...['a', 'aa', 'aaab', 'abab', 'a*b', 'a?b', '*', 'web-prod', 'web-prod\n', 'web\nprod', 'web\r'],
  ...['x\u2028y', 'x\u2029', '\n', 'm5.lärge', '\u{1f44d}', 'é', ' m5.large', 'm5.large ', 'axb', '(a|b)'],
]

describe('matchesGlob', () => {
  it('agrees with the regular expressions it replaced on every pattern × value of a table', () => {
    const pairs = PATTERNS.flatMap((pattern) => VALUES.map((value) => ({ pattern, value })))
    const disagreements = pairs.filter(
      ({ pattern, value }) => matchesGlob(value, pattern) !== matchesByRegExp(value, pattern),
    )
    expect(pairs.length).toBeGreaterThan(1000)
    expect(disagreements).toEqual([])
  })

  it('agrees with them on generated inputs, line breaks and wildcards in values included', () => {
    // Few stars and short values: the regular expressions are exponential in the stars.
    const pattern = fc
      .array(fc.constantFrom('a', 'b', '.', '/', '*', '?', '\n'), { maxLength: 8 })
      .filter((chars) => chars.filter((c) => c === '*').length <= 5)
      .map((chars) => chars.join(''))
    const value = fc
      .array(fc.constantFrom('a', 'b', '.', '/', '*', '?', '\n', '\r', '\u2028', '\u2029'), {
        maxLength: 12,
      })
      .map((chars) => chars.join(''))
    fc.assert(
      fc.property(pattern, value, (p, v) => matchesGlob(v, p) === matchesByRegExp(v, p)),
      { seed: 14, numRuns: 10_000 },
    )
  })

  it.each([
    ['m5.large', 'm5.large', true],
    ['m5.large', 'm5.*', true],
    ['m5.large', '*.large', true],
    ['m5.large', 'm?.large', true],
    ['m5a.large', 'm5.*', false],
    ['m5a.large', 'm5*', true],
    ['m5.xlarge', 'm5.large', false],
    ['eu-west-1', 'eu-*', true],
    ['us-east-1', 'eu-*', false],
    ['web-prod', 'web*', true],
  ])('%s against %s is %s', (value, pattern, expected) => {
    expect(matchesGlob(value, pattern)).toBe(expected)
  })

  it('matches the whole value, not a part of it', () => {
    expect(matchesGlob('xm5.large', 'm5.large')).toBe(false)
    expect(matchesGlob('m5.large2', 'm5.large')).toBe(false)
  })

  it('treats a dot as a literal dot, not as any character', () => {
    expect(matchesGlob('m5xlarge', 'm5.large')).toBe(false)
    expect(matchesGlob('m5Xlarge', 'm5.*')).toBe(false)
  })

  it('treats + as a literal character', () => {
    expect(matchesGlob('a+b', 'a+b')).toBe(true)
    expect(matchesGlob('aab', 'a+b')).toBe(false)
  })

  it('lets ? stand for exactly one character', () => {
    expect(matchesGlob('m5.large', 'm??.large')).toBe(false)
    expect(matchesGlob('m5a.large', 'm??.large')).toBe(true)
  })

  it('is case-sensitive, as instance type names and tag values are', () => {
    expect(matchesGlob('M5.large', 'm5.*')).toBe(false)
  })

  it('lets * cross a slash, as tag values with paths need', () => {
    expect(matchesGlob('team/web/prod', 'team/*')).toBe(true)
    expect(matchesGlob('team/web/prod', '*/prod')).toBe(true)
  })

  it('lets no wildcard match a line break, as the regular expressions before it did not', () => {
    expect(matchesGlob('true\n', 't*')).toBe(false)
    expect(matchesGlob('a\nb', 'a?b')).toBe(false)
    expect(matchesGlob('a\nb', 'a*b')).toBe(false)
  })
})

/** The most steps a match may take: (value length + 1) × (pattern length + 1). */
const workBound = (value: string, pattern: string): number => (value.length + 1) * (pattern.length + 1)

/**
 * Worst cases for a backtracking matcher: stars whose share of the value is ambiguous, then a failure at
 * the very end. The regular expressions took 10 s per match on the first at 20 characters, 71 s at 25.
 */
const WORST_CASES: readonly [pattern: string, value: string, matches: boolean][] = [
  [`${'*'.repeat(14)}b`, 'a'.repeat(10_000), false],
  [`${'a*'.repeat(8)}b`, 'a'.repeat(10_000), false],
  [`${'*a'.repeat(8)}b`, 'a'.repeat(10_000), false],
  ['*a*b*a*b*a*b*a*b', `${'ab'.repeat(5_000)}c`, false],
  [`${'*?'.repeat(8)}x`, `${'x'.repeat(9_999)}y`, false],
  ['*'.repeat(MAX_GLOB_WILDCARDS), `${'a'.repeat(9_999)}\n`, false],
  ['*a'.repeat(8), 'a'.repeat(10_000), true],
  // This matcher's own worst case: every retry of the star walks a long literal before failing.
  [`*${'a'.repeat(126)}b`, 'a'.repeat(10_000), false],
  [`${'*'.repeat(MAX_GLOB_WILDCARDS - 1)}b`, 'a'.repeat(100_000), false],
  [`${'a*'.repeat(MAX_GLOB_WILDCARDS / 2)}b`, `${'a'.repeat(100_000)}b`, true],
]

describe('matchesGlob work', () => {
  // Speed is the benchmark's business; a step count is deterministic and cannot flake.
  it.each(WORST_CASES.map(([pattern, value, matches]) => ({ pattern, value, matches, n: value.length })))(
    '$pattern against $n characters stays within (n + 1)(m + 1) steps',
    ({ pattern, value, matches }) => {
      const result = matchesGlobCountingSteps(value, pattern)
      expect(result.matches).toBe(matches)
      expect(result.steps).toBeLessThanOrEqual(workBound(value, pattern))
    },
  )

  it('stays within the bound for any pattern and value', () => {
    const text = (chars: string[], maxLength: number) =>
      fc.array(fc.constantFrom(...chars), { maxLength }).map((c) => c.join(''))
    fc.assert(
      fc.property(text(['a', 'b', '*', '?'], 40), text(['a', 'b', '\n'], 200), (pattern, value) => {
        const { matches, steps } = matchesGlobCountingSteps(value, pattern)
        return matches === matchesGlob(value, pattern) && steps <= workBound(value, pattern)
      }),
      { seed: 7, numRuns: 2_000 },
    )
  })
})

describe('matchesAny', () => {
  it('is true when one pattern matches and false for an empty list', () => {
    expect(matchesAny('c6i.large', ['m5.*', 'c6i.*'])).toBe(true)
    expect(matchesAny('c6i.large', [])).toBe(false)
  })
})

describe('isValidGlob', () => {
  it.each(['m5.large', 'm5.*', '*', 'c6?.xlarge', 'eu-*', 'team/web', 'a@b', 'k:v', 'x=y'])(
    'accepts %s',
    (pattern) => {
      expect(isValidGlob(pattern)).toBe(true)
    },
  )

  it.each([
    ['empty', ''],
    ['a space', 'm5 large'],
    ['a bracket class', 'm[45].large'],
    ['a brace alternative', 'm5.{large,xlarge}'],
    ['a regular-expression group', '(m5|c5).large'],
    ['a backslash', 'm5\\.large'],
    ['non-ASCII letters', 'm5.lärge'],
    ['longer than 128 characters', `m${'5'.repeat(128)}`],
    [`more than ${MAX_GLOB_WILDCARDS} stars`, '*'.repeat(MAX_GLOB_WILDCARDS + 1)],
    [`more than ${MAX_GLOB_WILDCARDS} wildcards of both kinds`, `${'*?'.repeat(MAX_GLOB_WILDCARDS / 2)}*x`],
  ])('rejects %s', (_label, pattern) => {
    expect(isValidGlob(pattern)).toBe(false)
  })

  it(`accepts ${MAX_GLOB_WILDCARDS} wildcards`, () => {
    expect(isValidGlob(`${'*'.repeat(MAX_GLOB_WILDCARDS - 1)}?`)).toBe(true)
  })
})

describe('splitList', () => {
  it.each([
    ['m5.large,c5.large', ['m5.large', 'c5.large']],
    ['m5.large c5.large', ['m5.large', 'c5.large']],
    [' m5.large ,  c5.large\t\nr5.large ', ['m5.large', 'c5.large', 'r5.large']],
    [',,m5.large,,', ['m5.large']],
    ['', []],
    ['   ', []],
  ])('splits %j', (raw, expected) => {
    expect(splitList(raw)).toEqual(expected)
  })
})
