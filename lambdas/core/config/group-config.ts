/** A group's effective configuration: the global defaults overridden by its `autospotting_*` tags. */
import { GROUP_TAG_PREFIX } from '../constants.ts'
import type { ConfigError, GroupConfig } from './config.ts'
import { overlay } from './overlay.ts'
import { GROUP_SETTINGS, groupTagName } from './settings.ts'
import { suggestion } from './suggest.ts'

/**
 * AutoSpotting settings spotswap does not have (bidding is gone from EC2; the rest are out of scope).
 * A group migrating with one of these gets a clear note instead of silence. The migration guide
 * (docs/migrating-from-autospotting.md) says why for each; a test holds it to this list.
 */
export const AUTOSPOTTING_ONLY_SETTINGS = [
  'bidding_policy',
  'spot_price_buffer_percentage',
  'spot_product_description',
  'spot_product_premium',
  'patch_beanstalk_userdata',
  'gp2_conversion_threshold',
  'instance_termination_method',
] as const

const AUTOSPOTTING_ONLY_TAGS = new Set(AUTOSPOTTING_ONLY_SETTINGS.map((name) => `${GROUP_TAG_PREFIX}${name}`))

/**
 * Tags AutoSpotting writes on the groups it converts, not settings anyone chose: a group AutoSpotting
 * managed carries them, and reporting them would raise a configuration error on every migrated group.
 */
export const AUTOSPOTTING_BOOKKEEPING_TAGS: readonly string[] = [
  // AutoSpotting core/autoscaling_configuration.go: set once its cron-based replacement is done with a group.
  `${GROUP_TAG_PREFIX}enable_instance_launch_event_handling`,
]

const KNOWN_GROUP_TAG_NAMES = GROUP_SETTINGS.map((s) => groupTagName(s.env))
const KNOWN_GROUP_TAGS = new Set(KNOWN_GROUP_TAG_NAMES)

/** `autospotting_*` tags that set nothing: a typo (`..._numbr`) would otherwise silently change nothing. */
const unknownSettingTags = (groupName: string, tags: Readonly<Record<string, string>>): ConfigError[] =>
  Object.entries(tags)
    .filter(
      ([name]) =>
        name.startsWith(GROUP_TAG_PREFIX) &&
        !KNOWN_GROUP_TAGS.has(name) &&
        !AUTOSPOTTING_BOOKKEEPING_TAGS.includes(name),
    )
    .map(([name, value]) => ({
      source: 'tag',
      name,
      value,
      expected: AUTOSPOTTING_ONLY_TAGS.has(name)
        ? 'nothing: this AutoSpotting setting has no spotswap equivalent'
        : `a spotswap setting tag: ${suggestion(name, KNOWN_GROUP_TAG_NAMES)}`,
      group: groupName,
      fallback: 'ignored',
      fatal: false,
    }))

const TAG_NAME_OF_ENV: ReadonlyMap<string, string> = new Map(
  GROUP_SETTINGS.map((s) => [s.env, groupTagName(s.env)]),
)

const hasSettingTags = (tags: Readonly<Record<string, string>>): boolean => {
  for (const name in tags) if (name.startsWith(GROUP_TAG_PREFIX)) return true
  return false
}

export const groupConfig = (
  defaults: GroupConfig,
  groupName: string,
  tags: Readonly<Record<string, string>>,
): { config: GroupConfig; errors: ConfigError[] } => {
  // Most groups carry no setting tag: they run on the defaults as they are (thousands of groups a run).
  if (!hasSettingTags(tags)) return { config: defaults, errors: [] }
  const { config, errors } = overlay(
    defaults,
    (envName) => {
      const name = TAG_NAME_OF_ENV.get(envName) ?? groupTagName(envName)
      const raw = tags[name]
      return raw === undefined ? undefined : { name, raw }
    },
    'tag',
    groupName,
  )
  return { config, errors: [...errors, ...unknownSettingTags(groupName, tags)] }
}
