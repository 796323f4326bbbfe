/**
 * The `spotswap` command line: one table of commands, each in its own module. Errors in what the user
 * typed print a usage hint and exit 2; anything else is a bug and exits 1 with its message.
 */
import { pathToFileURL } from 'node:url'
import { benchCommand } from '../bench/bench-command.ts'
import { chaosCommand } from '../chaos/command.ts'
import { UsageError } from '../shared/args.ts'
import { type CliIo, type Command, processIo } from '../shared/io.ts'
import { planCommand } from './plan-command.ts'
import { simulateCommand } from './simulate-command.ts'

export const COMMANDS: Readonly<Record<string, Command>> = {
  simulate: simulateCommand,
  plan: planCommand,
  chaos: chaosCommand,
  bench: benchCommand,
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
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (command === undefined) {
    io.err(`spotswap: unknown command '${name}'\n\n${help()}`)
    return 2
  }
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
