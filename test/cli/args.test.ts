import { describe, expect, it } from 'vitest'
import { integerOption, type OptionSpec, parseOptions, UsageError } from '../../tools/shared/args.ts'

const specs: OptionSpec[] = [
  { name: 'json', kind: 'flag', description: '' },
  { name: 'scenario', kind: 'value', description: '', placeholder: 'FILE' },
  { name: 'region', kind: 'list', description: '' },
  { name: 'runs', kind: 'value', description: '' },
]

const usageErrorOf = (run: () => unknown): UsageError => {
  try {
    run()
  } catch (error) {
    if (error instanceof UsageError) return error
    throw error
  }
  throw new Error('expected a UsageError')
}

describe('parseOptions', () => {
  it('reads flags, values in both spellings and repeated comma-separated lists', () => {
    const parsed = parseOptions(
      ['--json', '--scenario', 'a.json', '--region=us-east-1,eu-west-1', '--region', ' us-west-2 ,'],
      specs,
    )
    expect([...parsed.flags]).toEqual(['json'])
    expect(parsed.values.get('scenario')).toBe('a.json')
    expect(parsed.lists.get('region')).toEqual(['us-east-1', 'eu-west-1', 'us-west-2'])
  })

  it('reads nothing from no arguments', () => {
    const parsed = parseOptions([], specs)
    expect([parsed.flags.size, parsed.values.size, parsed.lists.size]).toEqual([0, 0, 0])
  })

  it('takes a value that starts with a single dash, so a bad number reaches its own check', () => {
    expect(parseOptions(['--runs', '-3'], specs).values.get('runs')).toBe('-3')
  })

  it.each([
    [['--scenrio', 'a.json'], 'unknown option --scenrio; did you mean --scenario?', '--scenrio'],
    [['--colour'], 'unknown option --colour', '--colour'],
    [['-h'], 'unknown option -h', '-h'],
    [['-json'], 'unknown option -j', '-j'],
    [['--scenario'], '--scenario needs a value (FILE)', '--scenario'],
    [['--scenario='], '--scenario needs a value (FILE)', '--scenario'],
    [['--scenario', '--json'], '--scenario needs a value (FILE)', '--scenario'],
    [['--region'], '--region needs a value', '--region'],
    [['--json=yes'], '--json takes no value', '--json'],
    [['--scenario', 'a', '--scenario', 'b'], '--scenario given twice', '--scenario'],
    [['--scenario=a', '--scenario=b'], '--scenario given twice', '--scenario'],
    [['simulate.json'], "unexpected argument 'simulate.json'", undefined],
    [['--json', 'yes'], "unexpected argument 'yes'", undefined],
    [['--', '--json'], "unexpected argument '--'", undefined],
  ])('rejects %j: %s', (argv, message, option) => {
    const error = usageErrorOf(() => parseOptions(argv, specs))
    expect({ message: error.message, option: error.option }).toEqual({ message, option })
  })
})

describe('integerOption', () => {
  const runs = (...argv: string[]) => integerOption(parseOptions(argv, specs), 'runs', 100, 1)

  it('reads an integer, or gives the default when the option is absent', () => {
    expect([runs('--runs', '300'), runs('--runs=1'), runs()]).toEqual([300, 1, 100])
  })

  it.each(['0', '-3', 'many', '1.5', '1e3', '9007199254740993'])('rejects --runs %s, naming it', (raw) => {
    const error = usageErrorOf(() => runs('--runs', raw))
    expect(error.message).toBe(`--runs must be an integer of at least 1, got '${raw}'`)
    expect(error.option).toBe('--runs')
  })
})
