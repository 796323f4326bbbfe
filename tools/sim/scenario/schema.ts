/**
 * scenarios/scenario.schema.json as a check: the shape, types, ranges and names of a scenario file. What
 * the schema cannot say (cross-field rules, the catalogue, traces) is parse.ts's. The check is Ajv's code
 * for the schema, generated ahead of time (validator-source.ts), so no run pays for compiling it.
 */
import { readFileSync } from 'node:fs'
import type { ScenarioProblem } from './check.ts'
import type { ScenarioFile } from './file-format.ts'
import { validate } from './scenario-validator.generated.js'
import { type SchemaNode, schemaProblems } from './schema-problems.ts'

/** The schema itself, from which schema-problems.ts words each message. */
export const SCENARIO_SCHEMA: SchemaNode = JSON.parse(
  readFileSync(new URL('../../../scenarios/scenario.schema.json', import.meta.url), 'utf8'),
)

/** Every way `raw` breaks the schema, or nothing and `raw` is a ScenarioFile. */
export const validateScenarioFile = (
  raw: unknown,
): { readonly file: ScenarioFile } | { readonly problems: ScenarioProblem[] } => {
  if (validate(raw)) return { file: raw }
  return { problems: schemaProblems(validate.errors ?? [], raw, SCENARIO_SCHEMA) }
}
