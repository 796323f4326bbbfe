/** The AutoSpotting migration guide covers every AutoSpotting name spotswap's code claims to read or write. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  AUTOSPOTTING_BOOKKEEPING_TAGS,
  AUTOSPOTTING_ONLY_SETTINGS,
} from '../../lambdas/core/config/group-config.ts'
import { GROUP_SETTINGS, groupTagName } from '../../lambdas/core/config/settings.ts'
import {
  DEFAULT_TAG_FILTERS,
  GROUP_TAG_PREFIX,
  TAG_LAUNCHED_BY,
  TAG_LAUNCHED_FOR_GROUP,
  TAG_REPLACING_INSTANCE,
} from '../../lambdas/core/constants.ts'
import { CONFIGURATION_VARIABLES } from '../../lib/configuration.ts'

const GUIDE = 'docs/migrating-from-autospotting.md'
const guide = readFileSync(GUIDE, 'utf8')
const named = new Set([...guide.matchAll(/`([^`]+)`/g)].map((m) => m[1]))

describe(GUIDE, () => {
  it.each([
    ['the per-group tags', GROUP_SETTINGS.map((s) => groupTagName(s.env))],
    ['the settings', [...CONFIGURATION_VARIABLES]],
    [
      'the AutoSpotting settings spotswap lacks',
      AUTOSPOTTING_ONLY_SETTINGS.map((n) => `${GROUP_TAG_PREFIX}${n}`),
    ],
    ['the tags AutoSpotting writes on groups', AUTOSPOTTING_BOOKKEEPING_TAGS],
    ['the instance tags', [TAG_LAUNCHED_BY, TAG_LAUNCHED_FOR_GROUP, TAG_REPLACING_INSTANCE]],
    ['the enabling tag', [DEFAULT_TAG_FILTERS]],
  ])('names %s', (_, names) => {
    expect(names.filter((name) => !named.has(name) && !guide.includes(`\`${name}=`))).toEqual([])
  })

  it('is linked from the README', () => {
    expect(readFileSync('README.md', 'utf8')).toContain('(docs/migrating-from-autospotting.md)')
  })
})
