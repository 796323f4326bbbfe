/**
 * The `spotswap` command line: one table of commands, each in its own module. Errors in what the user
 * typed print a usage hint and exit 2; anything else is a bug and exits 1 with its message.
 */
import { pathToFileURL } from 'node:url'
import { UsageError } from '../shared/args.ts'
import { type CliIo, type Command, processIo } from '../shared/io.ts'

export interface CommandEntry {
  /** Its line in the help. */
  readonly summary: string
  /**
   * Its module, imported only when it runs: `npm start` (simulate) should not load the benchmark, chaos
   * and fast-check, 38 modules and 0.2 to 0.3 s through tsx before the simulation starts.
   */
  readonly load: () => Promise<Command>
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  simulate: {
    summary: 'run spotswap against a simulated AWS account (real prices, offline)',
    load: async () => (await import('./simulate-command.ts')).simulateCommand,
  },
  plan: {
    summary: 'read-only dry run against your AWS account: what would be replaced, and the savings',
    load: async () => (await import('./plan-command.ts')).planCommand,
  },
  verify: {
    summary: 'acceptance run in your own sandbox account: a tiny group converted, checked and deleted',
    load: async () => (await import('./verify-command.ts')).verifyCommand,
  },
  revert: {
    summary: 'bring a group back to all on-demand, one serve-before-retire step per replacer run',
    load: async () => (await import('./revert-command.ts')).revertCommand,
  },
  chaos: {
    summary: 'random accounts under faults; checks the invariants of docs/reliability.md',
    load: async () => (await import('../chaos/command.ts')).chaosCommand,
  },
  bench: {
    summary: 'benchmark spotswap against the alternatives (savings, availability, scale)',
    load: async () => (await import('../bench/bench-command.ts')).benchCommand,
  },
}

const help = (): string =>
  [
    'Usage: spotswap <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`),
    '',
    "Run 'spotswap <command> --help' for a command's options.",
    '',
  ].join('\n')

export const main = async (argv: readonly string[], io: CliIo = processIo()): Promise<number> => {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(help())
    return name === undefined ? 2 : 0
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (entry === undefined) {
    io.err(`spotswap: unknown command '${name}'\n\n${help()}`)
    return 2
  }
  const command = await entry.load()
  try {
    return await command.run(rest, io)
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`spotswap ${name}: ${error.message}\n\n${command.usage}\n`)
      return 2
    }
    io.err(`spotswap ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return 1
  }
}

// Run when executed directly (tsx tools/cli/main.ts, bin/spotswap.js), not when imported by tests.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2))
}
