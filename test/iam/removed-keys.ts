/**
 * The tag keys each Lambda's code removes from instances, read from its source, so a role's DeleteTags
 * grant (which names keys) cannot fall behind the code. Every `untagInstances(` call names its keys as a
 * literal list of core/constants.ts names, except the interruption handler's executor, which removes the
 * keys of core/interruption's `untag-instance` actions (listed literally there). Anything else is refused,
 * so a new call site stays checkable.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as constants from '../../lambdas/core/constants.ts'
import type { Caller } from './requests.ts'

const LAMBDAS = new URL('../../lambdas/', import.meta.url).pathname

export interface Removal {
  readonly site: string
  readonly keys: readonly string[]
}

const sources = (dir: string): [string, string][] =>
  readdirSync(join(LAMBDAS, dir))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => [`${dir}/${name}`, readFileSync(join(LAMBDAS, dir, name), 'utf8')])

const keysOf = (site: string, list: string): string[] =>
  list
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map((name) => {
      const value = (constants as Record<string, unknown>)[name]
      if (typeof value !== 'string') throw new Error(`${site}: ${name} is not a tag key of core/constants.ts`)
      return value
    })

const UNTAG_CALL = /untagInstances\([^,]+,\s*(\[[^\]]*\]|[\w.]+)\s*\)/g
const UNTAG_ACTION = /kind: 'untag-instance'[^}]*?keys: (\[[^\]]*\])/g

/** What the interruption handler's core asks its executor to remove. */
const interruptionActions = (): Removal[] =>
  sources('core/interruption').flatMap(([file, source]) =>
    [...source.matchAll(UNTAG_ACTION)].map((match) => ({ site: file, keys: keysOf(file, match[1] ?? '') })),
  )

const callsIn = (dir: string): Removal[] =>
  sources(dir).flatMap(([file, source]) =>
    [...source.matchAll(UNTAG_CALL)].flatMap((match) => {
      const keys = match[1] ?? ''
      if (keys.startsWith('[')) return [{ site: file, keys: keysOf(file, keys) }]
      if (file === 'interruption/execute.ts' && keys === 'action.keys') return interruptionActions()
      throw new Error(`${file}: untagInstances(…, ${keys}) must name its keys literally`)
    }),
  )

export const removedKeys = (): Record<Caller, Removal[]> => ({
  replacer: callsIn('replacer'),
  interruption: callsIn('interruption'),
})
