/** What a command may touch: its output streams and files. Tests pass recorders; main.ts the process's. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

export interface CliIo {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  /** The stream a progress bar may draw on, or undefined when there must be none. */
  readonly progressStream: NodeJS.WriteStream | undefined
  readonly writeFile: (path: string, content: string) => void
  readonly env: Readonly<Record<string, string | undefined>>
}

export const processIo = (): CliIo => ({
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  progressStream: process.stderr.isTTY ? process.stderr : undefined,
  writeFile: (path, content) => {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, content)
  },
  env: process.env,
})

/** A command's module; its summary is in the command table (tools/cli/main.ts), read without loading it. */
export interface Command {
  readonly usage: string
  /** Resolves to the process exit code. */
  readonly run: (argv: readonly string[], io: CliIo) => Promise<number>
}
