/** Node subprocesses of the benchmark: the repository's TypeScript run through tsx, one line of JSON back. */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

export const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url))

/** Runs `node [nodeFlags] --import tsx <script> ...args` from the repository root; resolves to its stdout. */
export const runTypeScript = async (
  script: string,
  args: readonly string[],
  nodeFlags: readonly string[] = [],
): Promise<string> => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...nodeFlags, '--import', 'tsx', script, ...args],
    {
      cwd: REPOSITORY,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 15 * 60_000,
    },
  )
  return stdout
}
