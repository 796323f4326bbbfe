/** Runs the command line in-process with recorded output and real files in a temporary directory. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from '../../tools/cli/main.ts'
import type { CliIo } from '../../tools/shared/io.ts'

export interface CliRun {
  readonly code: number
  readonly out: string
  readonly err: string
  readonly files: Map<string, string>
}

export const tempDir = (): string => mkdtempSync(join(tmpdir(), 'spotswap-cli-'))

export const writeJson = (dir: string, name: string, value: unknown): string => {
  const path = join(dir, name)
  writeFileSync(path, JSON.stringify(value))
  return path
}

/** An io that records what a command prints and writes; `output()` reads it back. */
export const recordingIo = (env: Record<string, string | undefined> = {}) => {
  let out = ''
  let err = ''
  const files = new Map<string, string>()
  const io: CliIo = {
    out: (text) => {
      out += text
    },
    err: (text) => {
      err += text
    },
    progressStream: undefined,
    writeFile: (path, content) => files.set(path, content),
    env,
  }
  return { io, output: () => ({ out, err, files }) }
}

export const runCli = async (
  argv: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<CliRun> => {
  const { io, output } = recordingIo(env)
  const code = await main(argv, io)
  return { code, ...output() }
}

export const readText = (path: string): string => readFileSync(path, 'utf8')
