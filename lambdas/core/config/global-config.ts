/** The run's configuration, from the Lambda's environment variables. */
import { DEFAULT_SCHEDULE_MINUTES, DEFAULT_TAG_FILTERS } from '../constants.ts'
import { type ConfigError, type GlobalConfig, TAG_FILTERING_MODES } from './config.ts'
import { describeValue, overlay } from './overlay.ts'
import { BUILT_IN_DEFAULTS } from './settings.ts'
import {
  type Parsed,
  parseBoolean,
  parseEnum,
  parseInteger,
  parseRegions,
  parseTagFilters,
} from './values.ts'

/**
 * Reads the global configuration from environment variables. Settings that decide *which* groups are
 * touched (REGIONS, TAG_FILTERS, TAG_FILTERING_MODE) are fatal when invalid: guessing there could act on
 * groups the user never enabled, so the run does nothing and says why.
 */
export const parseGlobalConfig = (
  env: Readonly<Record<string, string | undefined>>,
): { config: GlobalConfig; errors: ConfigError[] } => {
  const errors: ConfigError[] = []
  const global = <T>(
    name: string,
    parser: (raw: string) => Parsed<T>,
    fallback: T,
    fatal: boolean,
    onError: T = fallback,
  ): T => {
    const raw = env[name]
    if (raw === undefined || raw.trim() === '') return fallback
    const parsed = parser(raw)
    if (parsed.ok) return parsed.value
    errors.push({
      source: 'env',
      name,
      value: raw,
      expected: parsed.expected,
      group: undefined,
      fallback: fatal ? 'none: no action this run' : describeValue(onError),
      fatal,
    })
    return onError
  }
  const defaultFilters = parseTagFilters(DEFAULT_TAG_FILTERS)
  if (!defaultFilters.ok) throw new Error('DEFAULT_TAG_FILTERS is invalid')
  const { config: defaults, errors: defaultErrors } = overlay(
    BUILT_IN_DEFAULTS,
    (name) => {
      const raw = env[name]
      return raw === undefined ? undefined : { name, raw }
    },
    'env',
    undefined,
  )
  const config: GlobalConfig = {
    regions: global('REGIONS', parseRegions, [], true),
    tagFilters: global('TAG_FILTERS', parseTagFilters, defaultFilters.value, true),
    tagFilteringMode: global('TAG_FILTERING_MODE', parseEnum(TAG_FILTERING_MODES), 'opt-in', true),
    // A DRY_RUN we cannot read was probably meant to be on: observing is the safe side.
    dryRun: global('DRY_RUN', parseBoolean, false, false, true),
    fanoutQueueUrl: env.FANOUT_QUEUE_URL?.trim() || undefined,
    scheduleMinutes: global('SCHEDULE_MINUTES', parseInteger(1, 1440), DEFAULT_SCHEDULE_MINUTES, false),
    // Unreadable, the cheap side: per-group figures stay in the log.
    groupMetrics: global('GROUP_METRICS', parseBoolean, false, false),
    defaults,
  }
  return { config, errors: [...errors, ...defaultErrors] }
}
