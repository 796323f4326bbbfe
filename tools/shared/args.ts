/**
 * Command-line options: `--name value`, `--name=value`, repeated options and boolean flags, checked
 * against what each command accepts so a typo is an error rather than silently ignored. Node's
 * `util.parseArgs` splits the arguments; the checks below turn what it found into one-line errors.
 */
import { parseArgs } from 'node:util'
import { closestName } from '../../lambdas/core/config/suggest.ts'

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

/** What the user typed is wrong; `option` names the offending option (as typed) when there is one. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
  constructor(
    message: string,
    readonly option?: string,
  ) {
    super(message)
  }
}

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number]

/**
 * Why not `strict: true`: its errors are Node's paragraphs (suggesting `--` for positionals, which no
 * command takes) and it lets a single-value option repeat, the last one winning. Non-strict parsing
 * still binds `--name value` by the option's type, so every token can be checked here instead.
 */
const checkToken = (token: Token, specs: readonly OptionSpec[], seen: Set<string>): void => {
  if (token.kind === 'positional') throw new UsageError(`unexpected argument '${token.value}'`)
  if (token.kind === 'option-terminator') throw new UsageError("unexpected argument '--'")
  const spec = specs.find((s) => s.name === token.name)
  if (spec === undefined || token.rawName !== `--${spec.name}`) {
    const closest = closestName(
      token.rawName,
      specs.map((s) => `--${s.name}`),
    )
    const hint = closest === undefined ? '' : `; did you mean ${closest}?`
    throw new UsageError(`unknown option ${token.rawName}${hint}`, token.rawName)
  }
  const option = token.rawName
  if (spec.kind === 'flag') {
    if (token.value !== undefined) throw new UsageError(`${option} takes no value`, option)
    return
  }
  // parseArgs takes the next argument whatever it is; `--scenario --json` is a forgotten value.
  if (token.value === undefined || token.value === '' || (!token.inlineValue && token.value.startsWith('--')))
    throw new UsageError(`${option} needs a value${spec.placeholder ? ` (${spec.placeholder})` : ''}`, option)
  if (spec.kind === 'value' && seen.has(spec.name)) throw new UsageError(`${option} given twice`, option)
  seen.add(spec.name)
}

export const parseOptions = (argv: readonly string[], specs: readonly OptionSpec[]): ParsedOptions => {
  const { values, tokens } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(
      specs.map((spec) => [
        spec.name,
        { type: spec.kind === 'flag' ? 'boolean' : 'string', multiple: spec.kind === 'list' },
      ]),
    ),
    strict: false,
    allowPositionals: true,
    tokens: true,
  })
  const seen = new Set<string>()
  for (const token of tokens) checkToken(token, specs, seen)
  const flags = new Set<string>()
  const single = new Map<string, string>()
  const lists = new Map<string, string[]>()
  for (const spec of specs) {
    const value = values[spec.name]
    if (value === undefined) continue
    if (spec.kind === 'flag') flags.add(spec.name)
    else if (spec.kind === 'value') single.set(spec.name, String(value))
    else
      lists.set(
        spec.name,
        [value]
          .flat()
          .flatMap((item) => String(item).split(','))
          .map((item) => item.trim())
          .filter((item) => item.length > 0),
      )
  }
  return { flags, values: single, lists }
}

/** An integer option of at least `min`, or `fallback` when it is not given. */
export const integerOption = (
  options: ParsedOptions,
  name: string,
  fallback: number,
  min: number,
): number => {
  const raw = options.values.get(name)
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw)))
    throw new UsageError(`--${name} must be an integer of at least ${min}, got '${raw}'`, `--${name}`)
  return Number(raw)
}

export const describeOptions = (specs: readonly OptionSpec[]): string =>
  specs
    .map((spec) => {
      const usage = spec.kind === 'flag' ? `--${spec.name}` : `--${spec.name} ${spec.placeholder ?? 'VALUE'}`
      return `  ${usage.padEnd(28)} ${spec.description}`
    })
    .join('\n')
