/**
 * The source of scenario-validator.generated.js: scenarios/scenario.schema.json compiled by Ajv ahead of
 * time (standalone code), so `spotswap simulate` neither loads Ajv's compiler nor compiles the schema on
 * every start (a third of a second or more). Only the generating script and the test that keeps the
 * committed module current import this; the simulator imports the module it writes.
 */
import { readFileSync } from 'node:fs'
import type { AnySchema } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import standalone from 'ajv/dist/standalone/index.js'

const SCHEMA_FILE = new URL('../../../scenarios/scenario.schema.json', import.meta.url)

/** Where the generated module is committed. */
export const SCENARIO_VALIDATOR_MODULE = new URL('./scenario-validator.generated.js', import.meta.url)

const HEADER = `// Generated from scenarios/scenario.schema.json by \`npm run generate:scenario-validator\`
// (tools/sim/scenario/validator-source.ts). Do not edit: change the schema and regenerate;
// test/sim/scenario-validator.test.ts fails while this file is stale.
import { createRequire } from 'node:module'

// Ajv's standalone ESM output still loads its runtime helpers (string length, deep equality) with require.
const require = createRequire(import.meta.url)
`

/**
 * The module's text for `schema` (by default the one on disk). `allErrors` reports every problem at once; `verbose`
 * gives each error its schema and value, from which schema-problems.ts writes its message; `lines` keeps
 * the module's diffs readable.
 */
export const scenarioValidatorSource = (
  schema: AnySchema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')),
): string => {
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: true,
    code: { source: true, esm: true, lines: true },
  })
  // A CommonJS module seen from ESM: the function is its `default` export.
  return `${HEADER}\n${standalone.default(ajv, ajv.compile(schema)).trimEnd()}\n`
}
