/** The invariants the simulator checks (tools/sim/invariant-list.ts) are the ones the docs and `chaos --help` state. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { INVARIANTS } from '../../tools/sim/invariant-list.ts'
import { runCli } from '../cli/support.ts'

const section = (markdown: string, heading: string): string => {
  const start = markdown.indexOf(`\n## ${heading}`)
  return markdown.slice(start, markdown.indexOf('\n## ', start + 1))
}

describe('the invariants, in the code and the docs', () => {
  it("README's safety list has one item per invariant", () => {
    const safety = section(readFileSync('README.md', 'utf8'), 'Safety')
    const numbers = [...safety.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1]))
    expect(numbers).toEqual(INVARIANTS.map((_, i) => i + 1))
  })

  it("docs/reliability.md's table names each invariant, in order", () => {
    const rows = [...readFileSync('docs/reliability.md', 'utf8').matchAll(/^\| (\d+) \| (`[^|]+`) \|/gm)]
    expect(
      rows.map((m) => [Number(m[1]), [...(m[2] ?? '').matchAll(/`([^`]+)`/g)].map((n) => n[1])]),
    ).toEqual(INVARIANTS.map((entry, i) => [i + 1, [...entry.names]]))
  })

  it('chaos --help states their number', async () => {
    const run = await runCli(['chaos', '--help'])
    expect(run.out).toContain(`checks the ${INVARIANTS.length} invariants`)
    // Loading the chaos command imports the simulator: seconds on a loaded 2-core machine.
  }, 60_000)
})
