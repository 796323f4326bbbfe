/**
 * vitest global setup: one moto_server for the whole run, its URL handed to tests as `inject('motoEndpoint')`.
 * Missing moto skips the moto suites on a developer machine (loudly) and fails the run where moto is
 * required (CI), so a green CI run always means the end-to-end suites ran.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { MotoUnavailableError, startMotoServer, waitUntilAnswers } from './moto-server.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the moto_server for this run (no trailing slash); undefined when moto is not installed. */
    motoEndpoint: string | undefined
  }
}

/** Use an already running moto (e.g. in a container) instead of starting one. */
const EXTERNAL_ENDPOINT_VARIABLE = 'SPOTSWAP_MOTO_ENDPOINT'
const EXTERNAL_ANSWER_TIMEOUT_MS = 10_000

const INSTALL_HINT = "pip install 'moto[server]'   (provides moto_server; python3 -m moto.server works too)"

/** CI must never pass by skipping; anyone can opt into the same strictness locally. */
export const motoRequired = (env: NodeJS.ProcessEnv): boolean =>
  ['true', '1'].includes((env.CI ?? '').trim().toLowerCase()) || env.SPOTSWAP_REQUIRE_MOTO === '1'

const suitesNeedingMoto = (root: string): string[] => {
  try {
    return readdirSync(join(root, 'test', 'e2e'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => join('test', 'e2e', file))
      .sort()
  } catch {
    return []
  }
}

export const skipWarning = (error: MotoUnavailableError, suites: readonly string[]): string => {
  const bar = '!'.repeat(100)
  return [
    '',
    bar,
    '!!  moto_server IS NOT AVAILABLE: the end-to-end suites against moto are SKIPPED on this machine.',
    '!!',
    ...error.message.split('\n').map((line) => `!!  ${line}`),
    '!!',
    '!!  Skipped suites (everything under test/e2e/ that uses describeMoto):',
    ...(suites.length > 0 ? suites.map((suite) => `!!    ${suite}`) : ['!!    (none found)']),
    '!!',
    `!!  Install: ${INSTALL_HINT}`,
    '!!  CI fails instead of skipping (CI=true); set SPOTSWAP_REQUIRE_MOTO=1 to do the same locally.',
    bar,
    '',
  ].join('\n')
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const external = process.env[EXTERNAL_ENDPOINT_VARIABLE]?.trim().replace(/\/+$/, '')
  if (external) {
    await waitUntilAnswers(external, Date.now() + EXTERNAL_ANSWER_TIMEOUT_MS)
    project.provide('motoEndpoint', external)
    return undefined
  }
  try {
    const server = await startMotoServer()
    project.provide('motoEndpoint', server.endpoint)
    return server.stop
  } catch (error) {
    if (!(error instanceof MotoUnavailableError)) throw error
    if (motoRequired(process.env)) {
      throw new Error(
        `${error.message}\nmoto is required here (CI or SPOTSWAP_REQUIRE_MOTO=1). Install: ${INSTALL_HINT}`,
        {
          cause: error,
        },
      )
    }
    const suites = suitesNeedingMoto(project.config.root)
    console.warn(skipWarning(error, suites))
    project.provide('motoEndpoint', undefined)
    // Repeated after the run, where people look, because the banner above has scrolled away by then.
    return async () => {
      console.warn(
        `\n!!  moto_server is not installed: ${suites.length} moto suite(s) were SKIPPED. ${INSTALL_HINT}\n`,
      )
    }
  }
}
