/** The README quotes the bench's own figures (bench/results.json), not a promise. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

interface Figures {
  readonly savingsPct: number
  readonly servingAvailabilityPct: number
}
const results = JSON.parse(readFileSync('bench/results.json', 'utf8')) as {
  scenarios: Record<string, Record<string, Figures>>
}
const readme = readFileSync('README.md', 'utf8')
const COLUMNS = ['spotswap', 'asg-price-capacity-optimized', 'asg-lowest-price', 'autospotting'] as const

const cell = (f: Figures | undefined): string =>
  f === undefined
    ? 'missing'
    : `${f.savingsPct.toFixed(2)}%, ${f.servingAvailabilityPct === 100 ? '100' : f.servingAvailabilityPct.toFixed(3)}%`

describe("the README's savings figures", () => {
  it('the headline range is the lowest and highest savings spotswap reached in the bench', () => {
    const savings = Object.values(results.scenarios).map((s) => s.spotswap?.savingsPct ?? Number.NaN)
    const range = `${Math.floor(Math.min(...savings))}–${Math.ceil(Math.max(...savings))}%`
    const headline = readme.split('\n## ')[0] ?? ''
    expect(headline).toContain(`saved ${range} of the on-demand`)
  })

  it('the comparison table has one row per bench scenario, with its figures', () => {
    const rows = Object.entries(results.scenarios).map(
      ([name, s]) =>
        `| ${name} | ${COLUMNS.map((c) => cell(s[c])).join(' | ')} | ${s.oracle?.savingsPct.toFixed(2)}% |`,
    )
    const table = readme.split('\n').filter((line) => /^\| [a-z0-9-]+ \| \d+\.\d\d%, /.test(line))
    expect(table).toEqual(rows)
  })
})
