import { describe, expect, it } from 'vitest'
import { type OptionSpec, parseOptions, UsageError } from '../../tools/shared/args.ts'

const specs: OptionSpec[] = [
  { name: 'json', kind: 'flag', description: '' },
  { name: 'scenario', kind: 'value', description: '', placeholder: 'FILE' },
  { name: 'region', kind: 'list', description: '' },
]

describe('parseOptions', () => {
  it('reads flags, values in both spellings and repeated comma-separated lists', () => {
    const parsed = parseOptions(
      ['--json', '--scenario', 'a.json', '--region=us-east-1,eu-west-1', '--region', 'us-west-2'],
      specs,
    )
    expect([...parsed.flags]).toEqual(['json'])
    expect(parsed.values.get('scenario')).toBe('a.json')
    expect(parsed.lists.get('region')).toEqual(['us-east-1', 'eu-west-1', 'us-west-2'])
  })

  it.each([
    [['--scenrio', 'a.json'], 'unknown option --scenrio'],
    [['--scenario'], '--scenario needs a value (FILE)'],
    [['--scenario', '--json'], '--scenario needs a value (FILE)'],
    [['--json=yes'], '--json takes no value'],
    [['--scenario', 'a', '--scenario', 'b'], '--scenario given twice'],
    [['simulate.json'], "unexpected argument 'simulate.json'"],
  ])('rejects %j: %s', (argv, message) => {
    expect(() => parseOptions(argv, specs)).toThrow(new UsageError(message))
  })
})
