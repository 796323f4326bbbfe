/**
 * The tag corpus through the replacer: each hostile or conflicting tag on a 3-instance on-demand group,
 * twelve scheduled runs five minutes apart on the stateful fake cloud with real prices. Whatever the
 * tag, nothing unsafe happens (checked around every mutating call, see support/invariants.ts), the run
 * never throws, and the group ends as the corpus says.
 */
import { describe, expect, it } from 'vitest'
import { matchesAny } from '../../lambdas/core/config/glob.ts'
import { groupConfig } from '../../lambdas/core/config/group-config.ts'
import { BUILT_IN_DEFAULTS } from '../../lambdas/core/config/settings.ts'
import { TAG_ORIGINAL_MAX_SIZE, TAG_SWAP } from '../../lambdas/core/constants.ts'
import type { SpotLaunchRequest } from '../../lambdas/core/port.ts'
import { readSwapRecord } from '../../lambdas/core/swap/record.ts'
import type { ReplacerSummary } from '../../lambdas/replacer/summary.ts'
import { replacerHarness, SCHEDULED_EVENT } from './support/handlers.ts'
import { watchInvariants } from './support/invariants.ts'
import { loadTagCorpus, type TagEntry, tagLabel } from './support/tag-corpus.ts'
import { buildWorld, MANAGED, membersOf } from './support/worlds.ts'

const RUNS = 12
/** The runs plus the one after them that closes the last swap. */
const TOTAL_RUNS = RUNS + 1
const SCHEDULE_MINUTES = 5

const failedActions = (summary: ReplacerSummary) =>
  summary.regions.flatMap((r) => r.groups ?? []).flatMap((g) => (g.actions ?? []) as { status?: string }[])

/** Instance types offered to CreateFleet that the group's effective allow or deny list forbids. */
const forbiddenTypes = (entry: TagEntry, requests: readonly SpotLaunchRequest[]): string[] => {
  const { config } = groupConfig(BUILT_IN_DEFAULTS, MANAGED, { ...entry.with, [entry.tag]: entry.value })
  // Every member of `web` is an m5.large, so `current` always means m5.large here.
  const expand = (globs: readonly string[]) => globs.map((g) => (g === 'current' ? 'm5.large' : g))
  const allowed = expand(config.allowedInstanceTypes)
  const denied = expand(config.disallowedInstanceTypes)
  return requests
    .flatMap((r) => r.overrides.map((o) => o.instanceType))
    .filter((type) => (allowed.length > 0 && !matchesAny(type, allowed)) || matchesAny(type, denied))
}

const runEntry = async (entry: TagEntry) => {
  const world = buildWorld('us-east-1', { ...entry.with, [entry.tag]: entry.value })
  const watch = watchInvariants(world.cloud, MANAGED, world.untouchable)
  const harness = replacerHarness([world.cloud], { REGIONS: 'us-east-1' })
  const group = world.cloud.group(MANAGED)
  const sizes = () => ({ min: group.minSize, max: group.maxSize, desired: group.desiredCapacity })
  const before = sizes()
  const problems: string[] = []
  for (let run = 1; run <= RUNS; run++) {
    const summary = await harness.run(SCHEDULED_EVENT)
    if (!summary.ok) problems.push(`run ${run}: summary not ok: ${JSON.stringify(summary.regions)}`)
    for (const action of failedActions(summary).filter((a) => a.status === 'failed'))
      problems.push(`run ${run}: action failed: ${JSON.stringify(action)}`)
    // A swap open between runs (its partners wait for their replacements to serve) holds one unit of
    // desired capacity per open pair, and MaxSize raised by as much where the group was full.
    const after = sizes()
    const onGroup = readSwapRecord(group.tags)
    const pairs = onGroup.kind === 'read' ? onGroup.record.pairs : 0
    const held = after.desired - before.desired
    if (
      after.min !== before.min ||
      held < 0 ||
      held > pairs ||
      after.max > Math.max(before.max, after.desired)
    )
      problems.push(
        `run ${run}: sizes ${JSON.stringify(after)} instead of ${JSON.stringify(before)} (+${pairs} open pairs)`,
      )
    if (group.tags[TAG_ORIGINAL_MAX_SIZE] !== undefined)
      problems.push(`run ${run}: the version-1 tag ${TAG_ORIGINAL_MAX_SIZE} was written`)
    if (group.tags[TAG_SWAP] === undefined && after.max !== before.max)
      problems.push(`run ${run}: MaxSize ${after.max} without an open swap`)
    harness.advanceMinutes(SCHEDULE_MINUTES)
  }
  // The last swap closes at the next run: then the group is exactly as its owner set it.
  await harness.run(SCHEDULED_EVENT)
  if (JSON.stringify(sizes()) !== JSON.stringify(before) && group.tags[TAG_SWAP] === undefined)
    problems.push(`end: sizes ${JSON.stringify(sizes())} instead of ${JSON.stringify(before)}`)
  if (group.tags[TAG_SWAP] === undefined && sizes().max !== before.max)
    problems.push(`end: MaxSize ${sizes().max} without an open swap`)
  return { world, watch, harness, problems }
}

/** One replay per entry, shared by the tests below. */
const replays = new Map<TagEntry, ReturnType<typeof runEntry>>()
const replay = (entry: TagEntry) => {
  let result = replays.get(entry)
  if (result === undefined) {
    result = runEntry(entry)
    replays.set(entry, result)
  }
  return result
}

const corpus = loadTagCorpus()
const rows = (entries: readonly TagEntry[]): [string, TagEntry][] => entries.map((e) => [tagLabel(e), e])

describe('tag corpus through the replacer', () => {
  describe('nothing unsafe happens, the run never throws, and the group ends as documented', () => {
    it.each(rows(corpus))('%s', async (_, entry) => {
      const { world, watch, problems } = await replay(entry)
      expect(watch.violations).toEqual([])
      expect(problems).toEqual([])
      const launches = world.cloud.calls.filter((c) => c.method === 'launchSpot')
      expect(
        forbiddenTypes(
          entry,
          launches.map((c) => c.args[0] as SpotLaunchRequest),
        ),
      ).toEqual([])
      const members = membersOf(world.cloud, MANAGED)
      if (entry.expect.outcome === 'no-launch') {
        expect(world.cloud.mutations).toEqual([])
        expect(members).toEqual({ inService: 3, spot: 0, onDemand: 3 })
      } else {
        expect(launches.length).toBeGreaterThan(0)
        expect(members.inService).toBe(3)
        if (entry.expect.spotAtEnd !== undefined) expect(members.spot).toBe(entry.expect.spotAtEnd)
      }
    })
  })

  const reportsTheTag = async (entry: TagEntry) => {
    const { harness } = await replay(entry)
    const aboutThisTag = harness.lines.filter(
      (line) => line.message === 'invalid configuration value' && line.attributes.name === entry.tag,
    )
    if (entry.expect.effective === 'not-a-setting') {
      // A name that sets nothing: warned about (a typo must be visible) when it looks like ours.
      expect(aboutThisTag).toHaveLength(entry.tag.startsWith('autospotting_') ? TOTAL_RUNS : 0)
      return
    }
    if (!entry.expect.configError) {
      expect(aboutThisTag).toEqual([])
      return
    }
    // Once per run: the tag is re-read every time, so a fix to the tag takes effect at the next run.
    expect(aboutThisTag).toHaveLength(TOTAL_RUNS)
    expect(aboutThisTag[0]).toEqual({
      level: 'warn',
      message: 'invalid configuration value',
      attributes: expect.objectContaining({
        region: 'us-east-1',
        source: 'tag',
        group: MANAGED,
        name: entry.tag,
        value: entry.value,
        expected: expect.stringContaining(entry.expect.expected ?? ''),
        fatal: false,
      }),
    })
    // Fleet metrics are per region unless GROUP_METRICS: only this group has a bad tag.
    const counted = harness.metricLines.filter(
      (m) => m.name === 'ConfigErrors' && m.dimensions.Group === undefined && m.value > 0,
    )
    expect(counted).toHaveLength(TOTAL_RUNS)
  }

  describe('a bad value is logged as a structured warning naming group, tag, value and what was expected', () => {
    it.each(rows(corpus.filter((e) => e.knownBug === undefined)))('%s', (_, entry) => reportsTheTag(entry))
    // Known product bugs (see each entry's knownBug): these pass while the bug exists.
    it.fails.each(rows(corpus.filter((e) => e.knownBug !== undefined)))('%s', (_, entry) =>
      reportsTheTag(entry),
    )
  })
})
