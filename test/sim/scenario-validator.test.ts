import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SCENARIO_SCHEMA } from '../../tools/sim/scenario/schema.ts'
import {
  SCENARIO_VALIDATOR_MODULE,
  scenarioValidatorSource,
} from '../../tools/sim/scenario/validator-source.ts'

describe('scenario-validator.generated.js', () => {
  it('is what Ajv generates from scenarios/scenario.schema.json today', () => {
    expect(
      readFileSync(SCENARIO_VALIDATOR_MODULE, 'utf8'),
      'stale: run npm run generate:scenario-validator and commit the result',
    ).toBe(scenarioValidatorSource())
  })

  it('would differ after a change to the schema (the comparison can fail)', () => {
    const changed = { ...SCENARIO_SCHEMA, required: ['name'] }
    expect(scenarioValidatorSource(changed)).not.toBe(scenarioValidatorSource())
  })
})
