/**
 * Scenario files from disk: the JSON, and capacity traces named by an embedded trace name or by a file
 * (relative to the scenario) in the spot-traces format `{"metadata": {"gap_seconds": N}, "data": [...]}`.
 */
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Catalog } from '../../../lambdas/core/types.ts'
import { type CapacityTrace, embeddedTrace } from '../../data/capacity-traces.ts'
import { embeddedCatalog } from '../../data/catalog.ts'
import { ScenarioError } from './check.ts'
import { parseScenario } from './parse.ts'
import type { Scenario } from './types.ts'

/** The built-in scenario `npm start` runs. */
export const BUILTIN_SCENARIO = fileURLToPath(new URL('../../../scenarios/builtin.json', import.meta.url))

/** A trace file in the skypilot spot-traces format, or undefined when it is not one. */
export const readTraceFile = (path: string): CapacityTrace | undefined => {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
  const file = parsed as { metadata?: { gap_seconds?: unknown }; data?: unknown }
  const gapSeconds = file.metadata?.gap_seconds
  const data = file.data
  if (typeof gapSeconds !== 'number' || !(gapSeconds > 0)) return undefined
  if (!Array.isArray(data) || data.length === 0 || !data.every((n) => Number.isInteger(n) && n >= 0))
    return undefined
  return { gapSeconds, instanceType: '', zone: '', data: data as number[] }
}

export const loadScenarioFile = (path: string, catalog: Catalog = embeddedCatalog()): Scenario => {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new ScenarioError(path, [{ path: '$', expected: 'a readable JSON file', got: reason }])
  }
  const directory = dirname(resolve(path))
  return parseScenario(raw, {
    source: path,
    catalog,
    resolveTrace: (reference) => embeddedTrace(reference) ?? readTraceFile(resolve(directory, reference)),
  })
}
