/**
 * The types of scenario-validator.generated.js, which Ajv writes as plain JavaScript (validator-source.ts):
 * a type guard that leaves, when it fails, every error (verbose: with its schema and value) in `errors`.
 */
import type { ErrorObject } from 'ajv'
import type { ScenarioFile } from './file-format.ts'

export declare const validate: ((data: unknown) => data is ScenarioFile) & {
  errors?: ErrorObject[] | null
}
