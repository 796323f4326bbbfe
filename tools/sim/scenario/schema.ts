/**
 * scenarios/scenario.schema.json, compiled once with Ajv: the shape, types, ranges and names of a
 * scenario file. What the schema cannot say (cross-field rules, the catalogue, traces) is parse.ts's.
 */
import { readFileSync } from 'node:fs'
import type { ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ScenarioProblem } from './check.ts'
import type { ScenarioFile } from './file-format.ts'
import { type SchemaNode, schemaProblems } from './schema-problems.ts'

export const SCENARIO_SCHEMA: SchemaNode = JSON.parse(
  readFileSync(new URL('../../../scenarios/scenario.schema.json', import.meta.url), 'utf8'),
)

let compiled: ValidateFunction<ScenarioFile> | undefined

/**
 * Compiled on first use, not on import: compiling takes tens of milliseconds, which `spotswap plan`
 * and every test that never reads a scenario should not pay. `allErrors` reports every problem at
 * once; `verbose` gives each error its schema and value, from which its message is written.
 */
const validator = (): ValidateFunction<ScenarioFile> => {
  compiled ??= new Ajv2020({ allErrors: true, verbose: true, strict: true }).compile<ScenarioFile>(
    SCENARIO_SCHEMA,
  )
  return compiled
}

/** Every way `raw` breaks the schema, or nothing and `raw` is a ScenarioFile. */
export const validateScenarioFile = (
  raw: unknown,
): { readonly file: ScenarioFile } | { readonly problems: ScenarioProblem[] } => {
  const validate = validator()
  if (validate(raw)) return { file: raw }
  return { problems: schemaProblems(validate.errors ?? [], raw, SCENARIO_SCHEMA) }
}
