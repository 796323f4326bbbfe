/**
 * Starting and stopping a local moto_server for a test run. This module only starts, probes and stops
 * the process and says why it could not; the global setup decides what a missing moto means (skip or fail).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

export interface MotoCommand {
  /** How a human would type it, for messages. */
  readonly label: string
  readonly file: string
  readonly args: readonly string[]
}

export interface MotoServer {
  readonly endpoint: string
  readonly command: MotoCommand
  /** Last lines moto printed, for diagnosing a failure. */
  readonly recentOutput: () => string
  readonly stop: () => Promise<void>
}

/** Every way we tried to start moto failed; `attempts` says how, one line each. */
export class MotoUnavailableError extends Error {
  constructor(readonly attempts: readonly string[]) {
    super(`moto_server could not be started:\n${attempts.map((attempt) => `  - ${attempt}`).join('\n')}`)
    this.name = 'MotoUnavailableError'
  }
}

/** Loopback only, and port 0: the OS picks a free port at bind time, so no other process can take it first. */
const BIND_ARGS = ['-H', '127.0.0.1', '-p', '0']

/** werkzeug's banner, printed once the socket is bound; it carries the port the OS picked. */
const READY_BANNER = /Running on (http:\/\/127\.0\.0\.1:\d+)/

/** A cold start (pyenv shim + imports) takes about a second; slow CI machines get ample room. */
export const DEFAULT_START_TIMEOUT_MS = 30_000

const STOP_GRACE_MS = 3_000
const OUTPUT_LINES_KEPT = 40

const findOnPath = (name: string, path: string | undefined): string | undefined => {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue
    const candidate = join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not in this directory
    }
  }
  return undefined
}

/** `moto_server` from PATH first, then the module through python3 (pip installs may not put scripts on PATH). */
export const motoCommands = (path: string | undefined = process.env.PATH): MotoCommand[] => {
  const onPath = findOnPath('moto_server', path)
  const viaPython = {
    label: 'python3 -m moto.server',
    file: 'python3',
    args: ['-m', 'moto.server', ...BIND_ARGS],
  }
  return onPath === undefined
    ? [viaPython]
    : [{ label: 'moto_server', file: onPath, args: BIND_ARGS }, viaPython]
}

/** Resolves once `endpoint` answers HTTP at all; moto's own dashboard route is cheap and always present. */
export const waitUntilAnswers = async (endpoint: string, deadline: number): Promise<void> => {
  let lastError: unknown
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${endpoint}/moto-api/`, { signal: AbortSignal.timeout(2_000) })
      await response.body?.cancel()
      if (response.status < 500) return
      lastError = new Error(`HTTP ${response.status}`)
    } catch (error) {
      lastError = error
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${endpoint} did not answer in time`, { cause: lastError })
}

const tailOf = (chunks: string[]): string => chunks.join('').split('\n').slice(-OUTPUT_LINES_KEPT).join('\n')

/** A child that never spawned (no pid) counts as exited: there is nothing to stop. */
const exited = (child: ChildProcess): boolean =>
  child.pid === undefined || child.exitCode !== null || child.signalCode !== null

const waitForExit = (child: ChildProcess, ms: number): Promise<boolean> =>
  exited(child)
    ? Promise.resolve(true)
    : new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms)
        child.once('exit', () => {
          clearTimeout(timer)
          resolve(true)
        })
      })

const startOne = async (command: MotoCommand, timeoutMs: number): Promise<MotoServer> => {
  const deadline = Date.now() + timeoutMs
  const child = spawn(command.file, command.args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const output: string[] = []
  // The pipes are read for the whole run: moto logs every request, and an unread pipe would block it.
  const remember = (chunk: Buffer): void => {
    output.push(chunk.toString())
    if (output.length > OUTPUT_LINES_KEPT * 4) output.splice(0, output.length - OUTPUT_LINES_KEPT)
  }
  child.stdout?.on('data', remember)
  child.stderr?.on('data', remember)
  // A crashed or interrupted run must not leave moto behind holding a port.
  const killOnExit = (): void => {
    child.kill('SIGKILL')
  }
  process.once('exit', killOnExit)

  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit)
    if (exited(child)) return
    child.kill('SIGTERM')
    if (!(await waitForExit(child, STOP_GRACE_MS))) {
      child.kill('SIGKILL')
      await waitForExit(child, STOP_GRACE_MS)
    }
  }

  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "Running on" banner within ${timeoutMs} ms`)),
        timeoutMs,
      )
      const watch = (): void => {
        const match = READY_BANNER.exec(output.join(''))
        if (match?.[1] === undefined) return
        clearTimeout(timer)
        resolve(match[1])
      }
      child.stdout?.on('data', watch)
      child.stderr?.on('data', watch)
      child.once('error', (error) => {
        clearTimeout(timer)
        reject(error)
      })
      child.once('exit', (code, signal) => {
        clearTimeout(timer)
        reject(new Error(`exited with ${signal ?? `code ${code}`}`))
      })
    })
    await waitUntilAnswers(endpoint, deadline)
    return { endpoint, command, recentOutput: () => tailOf(output), stop }
  } catch (error) {
    await stop()
    const reason = error instanceof Error ? error.message : String(error)
    const said = tailOf(output).trim()
    throw new Error(said === '' ? reason : `${reason}; it said: ${said.split('\n').slice(-3).join(' | ')}`)
  }
}

/** Tries each command in turn; the first that answers wins. Throws MotoUnavailableError when none does. */
export const startMotoServer = async (
  commands: readonly MotoCommand[] = motoCommands(),
  timeoutMs: number = DEFAULT_START_TIMEOUT_MS,
): Promise<MotoServer> => {
  const attempts: string[] = []
  for (const command of commands) {
    try {
      return await startOne(command, timeoutMs)
    } catch (error) {
      attempts.push(`${command.label}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  throw new MotoUnavailableError(attempts.length > 0 ? attempts : ['no command to try'])
}
