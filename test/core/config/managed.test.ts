import { describe, expect, it } from 'vitest'
import type { TagFilter, TagFilteringMode } from '../../../lambdas/core/config/config.ts'
import { groupQuery, isManaged } from '../../../lambdas/core/config/managed.ts'
import type { GroupQuery } from '../../../lambdas/core/port.ts'

const filters = (...pairs: [string, string][]): TagFilter[] => pairs.map(([key, value]) => ({ key, value }))
/** What DescribeAutoScalingGroups returns for a query: `tag:<key>` = one of the values, or `tag-key`. */
const returnedBy = (query: GroupQuery, tags: Readonly<Record<string, string>>): boolean => {
  if (query.tagKey === undefined) return true
  const value = tags[query.tagKey]
  return value !== undefined && (query.tagValues.length === 0 || query.tagValues.includes(value))
}
const mode = (tagFilteringMode: TagFilteringMode, tagFilters: readonly TagFilter[]) => ({
  tagFilteringMode,
  tagFilters,
})

describe('isManaged in opt-in mode', () => {
  const defaults = mode('opt-in', filters(['spot-enabled', 'true']))

  it.each([
    [{ 'spot-enabled': 'true' }, true],
    [{ 'spot-enabled': 'true', team: 'web' }, true],
    [{ 'spot-enabled': 'false' }, false],
    [{ 'spot-enabled': 'True' }, false],
    [{ 'spot-enabled': '' }, false],
    [{ team: 'web' }, false],
    [{}, false],
  ])('with the default filter, tags %j → %s', (tags, expected) => {
    expect(isManaged(tags, defaults)).toBe(expected)
  })

  it.each([
    [{ 'spot-enabled': 'true', team: 'web-frontend' }, true],
    [{ 'spot-enabled': 'true', team: 'web' }, true],
    [{ 'spot-enabled': 'true', team: 'api' }, false],
    [{ team: 'web-frontend' }, false],
    [{ 'spot-enabled': 'true' }, false],
  ])('requires every filter (AND) with glob values: tags %j → %s', (tags, expected) => {
    const config = mode('opt-in', filters(['spot-enabled', 'true'], ['team', 'web*']))
    expect(isManaged(tags, config)).toBe(expected)
  })

  it('matches a whole value, not a part of it', () => {
    const config = mode('opt-in', filters(['env', 'prod']))
    expect(isManaged({ env: 'preprod' }, config)).toBe(false)
    expect(isManaged({ env: 'prod' }, config)).toBe(true)
  })

  it('accepts any value of a key filtered by *, but not a missing key', () => {
    const config = mode('opt-in', filters(['spotswap', '*']))
    expect(isManaged({ spotswap: 'yes' }, config)).toBe(true)
    expect(isManaged({}, config)).toBe(false)
  })
})

describe('isManaged in opt-out mode', () => {
  const optOut = mode('opt-out', filters(['spot-enabled', 'true']))

  it.each([
    [{}, true],
    [{ team: 'web' }, true],
    [{ 'spot-enabled': 'true' }, true],
    [{ 'spot-enabled': 'maybe' }, true],
    [{ 'spot-enabled': 'false' }, false],
    [{ 'spot-enabled': 'False' }, false],
    [{ 'spot-enabled': ' false ' }, false],
  ])('tags %j → %s', (tags, expected) => {
    expect(isManaged(tags, optOut)).toBe(expected)
  })

  it('excludes a group that sets any filter key to false', () => {
    const config = mode('opt-out', filters(['spot-enabled', 'true'], ['team', 'web*']))
    expect(isManaged({ team: 'false' }, config)).toBe(false)
    expect(isManaged({ team: 'api' }, config)).toBe(true)
  })
})

describe('groupQuery', () => {
  it('asks for the exact value of the first filter in opt-in mode', () => {
    expect(groupQuery(mode('opt-in', filters(['spot-enabled', 'true'], ['team', 'web'])))).toEqual({
      tagKey: 'spot-enabled',
      tagValues: ['true'],
    })
  })

  it.each(['web*', 'we?', '*'])('asks only for the key when the first value is the glob %s', (value) => {
    expect(groupQuery(mode('opt-in', filters(['team', value])))).toEqual({ tagKey: 'team', tagValues: [] })
  })

  it('lists every group in opt-out mode, since untagged groups are managed too', () => {
    expect(groupQuery(mode('opt-out', filters(['spot-enabled', 'true'])))).toEqual({
      tagKey: undefined,
      tagValues: [],
    })
  })

  it('lists every group when there is no filter', () => {
    expect(groupQuery(mode('opt-in', []))).toEqual({ tagKey: undefined, tagValues: [] })
  })

  it.each<Record<string, string>>([
    { 'spot-enabled': 'true', team: 'web' },
    { 'spot-enabled': 'true', team: 'web-2' },
    { 'spot-enabled': 'true', team: 'webapp', env: 'prod' },
    { team: 'web' },
    {},
  ])('never narrows away a group that isManaged accepts: %j', (tags) => {
    expect.hasAssertions()
    for (const config of [
      mode('opt-in', filters(['spot-enabled', 'true'], ['team', 'web*'])),
      mode('opt-in', filters(['team', 'web*'], ['spot-enabled', 'true'])),
      mode('opt-out', filters(['spot-enabled', 'true'])),
    ]) {
      if (isManaged(tags, config)) expect(returnedBy(groupQuery(config), tags)).toBe(true)
    }
  })
})
