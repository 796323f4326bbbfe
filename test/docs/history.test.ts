/**
 * User docs describe the product, not how it got here: no commit hashes, issue numbers or session
 * narratives in README.md or docs/ (docs/design/ holds design records, dated by nature). History goes to
 * CHANGELOG.md; results with their commit to bench/RESULTS.md, which the bench writes.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const markdownUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return path === join('docs', 'design') ? [] : markdownUnder(path)
    return entry.name.endsWith('.md') ? [path] : []
  })

const USER_DOCS = ['README.md', ...markdownUnder('docs')]

/** What history looks like in prose; each pattern with what it catches. */
const HISTORY_PATTERNS: readonly (readonly [string, RegExp])[] = [
  // 7 to 40 hex digits with a digit and a letter, not part of an id (i-0abc…, sg-…), a path or a URL.
  ['a commit hash', /(?<![-\w/.:#=])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])/],
  ['an issue reference', /\bissues? #?\d+|(?<![\w&])#\d+\b/i],
  ['a session note', /\b(?:this|last|previous|earlier) session\b|\bsession notes?\b|\bworking notes?\b/i],
  ['a sweep history', /\bthe sweeps? before (?:it|this)\b|\blatest full sweep\b/i],
]

const findings = (text: string): string[] =>
  text
    .split('\n')
    .flatMap((line, index) =>
      HISTORY_PATTERNS.filter(([, pattern]) => pattern.test(line)).map(
        ([what, pattern]) => `${index + 1}: ${what}: ${pattern.exec(line)?.[0]}`,
      ),
    )

describe('user docs hold no history', () => {
  it.each(USER_DOCS)('%s', (path) => {
    expect(findings(readFileSync(path, 'utf8'))).toEqual([])
  })

  it.each([
    ['at 57144c5 (seeds 1–10,000)', 'a commit hash'],
    ['the Auto Scaling features of issue 13', 'an issue reference'],
    ['fixed in #42', 'an issue reference'],
    ['The sweeps before it this session', 'a session note'],
    ['Latest full sweep: 10,000 passed', 'a sweep history'],
  ])('catches %j as %s', (line, what) => {
    expect(findings(line).join()).toContain(what)
  })

  it.each([
    'instance i-0123456789abcdef0 in sg-0abc1234def',
    'the `spotswap:swap` tag, 2026-11-27T07:38:20Z, added and faced',
    '[Availability Zone distribution](https://docs.aws.amazon.com/a/ec2-auto-scaling-availability-zone-balanced.html)',
    'the run before it, then the sweep',
  ])('leaves %j alone', (line) => {
    expect(findings(line)).toEqual([])
  })
})
