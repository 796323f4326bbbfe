import { describe, expect, it } from 'vitest'
import { isValidGlob, matchesAny, matchesGlob, splitList } from '../../lambdas/core/glob.ts'

describe('matchesGlob', () => {
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
  ])('rejects %s', (_label, pattern) => {
    expect(isValidGlob(pattern)).toBe(false)
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
