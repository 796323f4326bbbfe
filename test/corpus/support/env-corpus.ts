/** env.json: environment misconfigurations, their ConfigErrors and what each Lambda then does. */
import { fail, isRecord, readJson } from './fixture-io.ts'

export type EnvBehaviour =
  /** Nothing is touched: no AWS call at all. */
  | 'no-action'
  /** Works normally: the replacer launches spot, the interruption handler acts on the member. */
  | 'acts'
  /** Observes and plans, never mutates. */
  | 'dry-run'
  /** REGIONS selects no region: the replacer runs nowhere, the interruption handler ignores the event. */
  | 'no-region'

export interface EnvEntry {
  readonly name: string
  readonly why: string
  readonly env: Readonly<Record<string, string>>
  readonly expect: {
    /** Every ConfigError, in any order: the variable, whether it is fatal, and what was used instead. */
    readonly errors: readonly { readonly name: string; readonly fatal: boolean; readonly fallback: string }[]
    readonly behaviour: EnvBehaviour
  }
}

export const loadEnvCorpus = (): EnvEntry[] => {
  const raw = readJson('env.json')
  if (!Array.isArray(raw)) throw new Error('env.json: expected an array')
  return raw.map((item: unknown, index): EnvEntry => {
    if (!isRecord(item)) return fail('env.json', index, 'not an object')
    const { name, why, env, expect } = item
    if (typeof name !== 'string' || typeof why !== 'string')
      return fail('env.json', index, 'name and why must be strings')
    if (!isRecord(env) || !Object.values(env).every((v) => typeof v === 'string'))
      return fail('env.json', index, 'env must map variable names to strings')
    if (!isRecord(expect) || !Array.isArray(expect.errors) || typeof expect.behaviour !== 'string')
      return fail('env.json', index, 'expect needs errors and behaviour')
    const fatal = (expect.errors as { fatal: boolean }[]).some((e) => e.fatal)
    if (fatal !== (expect.behaviour === 'no-action'))
      return fail('env.json', index, "behaviour is 'no-action' exactly when an error is fatal")
    return {
      name,
      why,
      env: env as Record<string, string>,
      expect: expect as unknown as EnvEntry['expect'],
    }
  })
}
