/** The corpus itself: big enough, covering every setting, and without duplicate names. */
import { describe, expect, it } from 'vitest'
import { GROUP_SETTINGS, groupTagName } from '../../lambdas/core/config/settings.ts'
import { loadEnvCorpus } from './support/env-corpus.ts'
import { loadEventCorpus } from './support/event-corpus.ts'
import { loadTagCorpus } from './support/tag-corpus.ts'

describe('the bad-input corpus', () => {
  const tags = loadTagCorpus()
  const events = loadEventCorpus()
  const env = loadEnvCorpus()

  it('holds at least 40 tag values, 20 events and a fatal case for each variable that selects groups', () => {
    expect(tags.length).toBeGreaterThanOrEqual(40)
    expect(events.length).toBeGreaterThanOrEqual(20)
    const fatal = new Set(env.flatMap((e) => e.expect.errors.filter((x) => x.fatal).map((x) => x.name)))
    expect([...fatal].sort()).toEqual(['REGIONS', 'TAG_FILTERING_MODE', 'TAG_FILTERS'])
  })

  it('has at least one refused value for every per-group tag', () => {
    const refused = new Set(tags.filter((t) => t.expect.configError).map((t) => t.tag))
    expect(GROUP_SETTINGS.map((s) => groupTagName(s.env)).filter((tag) => !refused.has(tag))).toEqual([])
  })

  it('has at least one unreadable global default for every per-group setting', () => {
    const named = new Set(env.flatMap((e) => e.expect.errors.map((x) => x.name)))
    expect(GROUP_SETTINGS.map((s) => s.env).filter((name) => !named.has(name))).toEqual([])
  })

  it('names every event and every environment case once', () => {
    for (const names of [events.map((e) => e.name), env.map((e) => e.name)])
      expect(new Set(names).size).toBe(names.length)
  })
})
