/**
 * Writes tools/sim/scenario/scenario-validator.generated.js from scenarios/scenario.schema.json (see
 * tools/sim/scenario/validator-source.ts). Run after changing the schema or upgrading Ajv:
 *
 *   npm run generate:scenario-validator
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { SCENARIO_VALIDATOR_MODULE, scenarioValidatorSource } from '../tools/sim/scenario/validator-source.ts'

writeFileSync(SCENARIO_VALIDATOR_MODULE, scenarioValidatorSource())
console.log(`wrote ${fileURLToPath(SCENARIO_VALIDATOR_MODULE)}`)
