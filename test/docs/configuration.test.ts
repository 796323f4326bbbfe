/**
 * One list of settings: the code's (lambdas/core/config, lib/), the CDK context (cdk.json, lib/app-config.ts),
 * the context table of docs/deploy.md and the README's configuration reference name the same settings, and
 * where a document states a default, it is the one the code uses.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { DEFAULT_SCHEDULE_MINUTES } from '../../lambdas/core/constants.ts'
import { AppContextKey } from '../../lib/app-config.ts'
import { CONFIGURATION_VARIABLES, MANAGED_VARIABLES } from '../../lib/configuration.ts'

const APP_KEYS = Object.values(AppContextKey) as string[]
const SETTINGS = [...CONFIGURATION_VARIABLES] as string[]
const sorted = (names: Iterable<string>): string[] => [...new Set(names)].sort()

/** `name → default cell` for every table row whose first cell starts with a backticked setting name. */
const tableRows = (markdown: string): Map<string, string> => {
  const rows = new Map<string, string>()
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim())
    const name = /^`([A-Z][A-Z0-9_]*|spotswap:[A-Za-z]+)`/.exec(cells[1] ?? '')?.[1]
    if (name !== undefined && cells.length >= 4) rows.set(name, cells[2] ?? '')
  }
  return rows
}

/** A default stated as one backticked value (`0`, `25%`); prose such as "every type" states none. */
const statedDefault = (cell: string): string | undefined => /^`([^`]*)`$/.exec(cell)?.[1]

/** The code's default is what the Lambdas run with when the variable is not set. */
const isCodeDefault = (name: string, value: string): boolean => {
  // Powertools reads LOG_LEVEL itself (lambdas/telemetry.ts), with INFO when it is unset.
  if (name === 'LOG_LEVEL') return value === 'INFO'
  const { config, errors } = parseGlobalConfig({ [name]: value })
  return errors.length === 0 && JSON.stringify(config) === JSON.stringify(parseGlobalConfig({}).config)
}

const section = (markdown: string, heading: string): string => {
  const start = markdown.indexOf(`\n## ${heading}\n`)
  const end = markdown.indexOf('\n## ', start + 1)
  return markdown.slice(start, end === -1 ? undefined : end)
}

const cdkContext = (JSON.parse(readFileSync('cdk.json', 'utf8')) as { context: Record<string, unknown> })
  .context
const deployRows = tableRows(readFileSync('docs/deploy.md', 'utf8'))
const referenceRows = tableRows(section(readFileSync('README.md', 'utf8'), 'Configuration reference'))

describe('the settings, in code, cdk.json and the docs', () => {
  it('cdk.json holds every context key the app reads, and no other', () => {
    expect(sorted(Object.keys(cdkContext))).toEqual(sorted([...APP_KEYS, ...SETTINGS]))
  })

  it("cdk.json's values are empty or the code's own defaults", () => {
    for (const name of SETTINGS) {
      const value = String(cdkContext[name])
      expect({ name, default: value === '' || isCodeDefault(name, value) }).toEqual({ name, default: true })
    }
    expect(cdkContext[AppContextKey.scheduleMinutes]).toBe(DEFAULT_SCHEDULE_MINUTES)
  })

  it("docs/deploy.md's context tables list every context key, and no other", () => {
    expect(sorted(deployRows.keys())).toEqual(sorted([...APP_KEYS, ...SETTINGS]))
  })

  it("the README's configuration reference lists every setting, and the ones the deployment sets", () => {
    expect(sorted(referenceRows.keys())).toEqual(
      sorted([...SETTINGS, ...MANAGED_VARIABLES, 'RUN_REQUEST_QUEUE_URL', 'DEADLINE_QUEUE_URL']),
    )
  })

  it.each([
    ['docs/deploy.md', deployRows],
    ['README.md', referenceRows],
  ])('%s states the defaults the code uses', (_, rows) => {
    const wrong = SETTINGS.filter((name) => {
      const stated = statedDefault(rows.get(name) ?? '')
      return stated !== undefined && !isCodeDefault(name, stated)
    })
    expect(wrong).toEqual([])
    expect(statedDefault(deployRows.get(AppContextKey.scheduleMinutes) ?? '')).toBe(
      String(DEFAULT_SCHEDULE_MINUTES),
    )
  })
})
