/**
 * Command-line options: `--name value`, `--name=value`, repeated options and boolean flags, checked
 * against what each command accepts so a typo is an error rather than silently ignored.
 */

export interface OptionSpec {
  readonly name: string
  /** `flag` takes no value; `value` takes one; `list` may repeat (and takes comma-separated values). */
  readonly kind: 'flag' | 'value' | 'list'
  readonly description: string
  readonly placeholder?: string
}

export interface ParsedOptions {
  readonly flags: ReadonlySet<string>
  readonly values: ReadonlyMap<string, string>
  readonly lists: ReadonlyMap<string, readonly string[]>
}

export class UsageError extends Error {
  override readonly name = 'UsageError'
}

export const parseOptions = (argv: readonly string[], specs: readonly OptionSpec[]): ParsedOptions => {
  const flags = new Set<string>()
  const values = new Map<string, string>()
  const lists = new Map<string, string[]>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument '${arg}'`)
    const eq = arg.indexOf('=')
    const name = arg.slice(2, eq === -1 ? undefined : eq)
    const spec = specs.find((s) => s.name === name)
    if (spec === undefined) throw new UsageError(`unknown option --${name}`)
    if (spec.kind === 'flag') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`)
      flags.add(name)
      continue
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1)
    if (value === undefined || value === '' || (eq === -1 && value.startsWith('--')))
      throw new UsageError(`--${name} needs a value${spec.placeholder ? ` (${spec.placeholder})` : ''}`)
    if (spec.kind === 'value') {
      if (values.has(name)) throw new UsageError(`--${name} given twice`)
      values.set(name, value)
    } else {
      const items = value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0)
      lists.set(name, [...(lists.get(name) ?? []), ...items])
    }
  }
  return { flags, values, lists }
}

export const describeOptions = (specs: readonly OptionSpec[]): string =>
  specs
    .map((spec) => {
      const usage = spec.kind === 'flag' ? `--${spec.name}` : `--${spec.name} ${spec.placeholder ?? 'VALUE'}`
      return `  ${usage.padEnd(28)} ${spec.description}`
    })
    .join('\n')
