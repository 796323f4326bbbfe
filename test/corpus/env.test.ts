/**
 * The environment corpus through parseGlobalConfig: each misconfiguration gives exactly the documented
 * errors, fatal for the variables that decide which groups are touched, the documented fallback for
 * the others.
 */
import { describe, expect, it } from 'vitest'
import { parseGlobalConfig } from '../../lambdas/core/config/global-config.ts'
import { type EnvEntry, loadEnvCorpus } from './support/env-corpus.ts'

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)

describe('environment corpus through parseGlobalConfig', () => {
  it.each(loadEnvCorpus().map((e): [string, EnvEntry] => [e.name, e]))('%s', (_, entry) => {
    const { errors } = parseGlobalConfig(entry.env)
    expect([...errors].sort(byName)).toEqual(
      [...entry.expect.errors].sort(byName).map((e) => ({
        source: 'env',
        name: e.name,
        value: entry.env[e.name],
        expected: expect.any(String),
        group: undefined,
        fallback: e.fallback,
        fatal: e.fatal,
      })),
    )
    for (const error of errors) expect(error.expected.length).toBeGreaterThan(10)
  })
})
