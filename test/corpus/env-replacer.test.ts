/**
 * The environment corpus through the replacer. A fatal misconfiguration is a clear start-up error
 * naming the variable, then nothing: no AWS call, no region lookup, no enqueue, and the invocation
 * returns instead of throwing, every time (no crash loop). Anything else runs with the fallback.
 */
import { describe, expect, it } from 'vitest'
import { type EnvEntry, loadEnvCorpus } from './support/env-corpus.ts'
import { replacerHarness, SCHEDULED_EVENT } from './support/handlers.ts'
import { buildWorld, MANAGED } from './support/worlds.ts'

const INVOCATIONS = 3

const corpus = loadEnvCorpus()
const rows = (entries: readonly EnvEntry[]): [string, EnvEntry][] => entries.map((e) => [e.name, e])
const fatalNames = (entry: EnvEntry) => entry.expect.errors.filter((e) => e.fatal).map((e) => e.name)

const setup = (entry: EnvEntry) => {
  const { cloud } = buildWorld('us-east-1')
  return { cloud, harness: replacerHarness([cloud], entry.env) }
}

describe('environment corpus through the replacer', () => {
  describe('a fatal setting: an error naming it, no AWS call at all, and a normal return every time', () => {
    it.each(rows(corpus.filter((e) => e.expect.behaviour === 'no-action')))('%s', async (_, entry) => {
      const { cloud, harness } = setup(entry)
      for (let i = 0; i < INVOCATIONS; i++) {
        const summary = await harness.run(SCHEDULED_EVENT)
        expect(summary).toMatchObject({ ok: false, regions: [] })
        expect(summary.configErrors.filter((e) => e.fatal).map((e) => e.name)).toEqual(
          expect.arrayContaining(fatalNames(entry)),
        )
      }
      expect(cloud.calls).toEqual([])
      expect(harness.cloudsAsked).toEqual([])
      expect(harness.regionLookups).toEqual([])
      expect(harness.enqueued).toEqual([])
      for (const name of fatalNames(entry)) {
        expect(harness.lines).toContainEqual({
          level: 'error',
          message: 'invalid configuration value',
          attributes: expect.objectContaining({ name, value: entry.env[name], fatal: true }),
        })
      }
      expect(harness.lines).toContainEqual({
        level: 'error',
        message: expect.stringContaining('prevents any action'),
        attributes: { fatal: expect.arrayContaining(fatalNames(entry)) },
      })
    })
  })

  describe('a non-fatal setting: a warning naming it and its fallback, and the run goes on with it', () => {
    it.each(rows(corpus.filter((e) => e.expect.behaviour !== 'no-action')))('%s', async (_, entry) => {
      const { cloud, harness } = setup(entry)
      const summary = await harness.run(SCHEDULED_EVENT)
      for (const error of entry.expect.errors) {
        expect(harness.lines).toContainEqual({
          level: 'warn',
          message: 'invalid configuration value',
          attributes: expect.objectContaining({ name: error.name, fallback: error.fallback, fatal: false }),
        })
      }
      const launches = cloud.mutations.filter((m) => m.method === 'launchSpot')
      switch (entry.expect.behaviour) {
        case 'acts':
          expect(summary.ok).toBe(true)
          // Every member of the managed group at once (the default budget of a group without load
          // balancers), none of any other group.
          expect(launches.length).toBeGreaterThan(0)
          expect(new Set(launches.map((m) => (m.args[0] as { groupName: string }).groupName))).toEqual(
            new Set([MANAGED]),
          )
          break
        case 'dry-run':
          expect(summary.dryRun).toBe(true)
          expect(cloud.mutations).toEqual([])
          {
            const planned = (summary.regions[0]?.groups?.find((g) => g.group === MANAGED)?.actions ??
              []) as unknown[]
            expect(planned.length).toBeGreaterThan(0)
            expect(planned).toEqual(
              planned.map(() => expect.objectContaining({ kind: 'launch-spot', status: 'planned' })),
            )
          }
          break
        case 'no-region':
          expect(summary.regions).toEqual([])
          expect(cloud.calls).toEqual([])
          expect(harness.lines).toContainEqual(
            expect.objectContaining({ level: 'warn', message: 'REGIONS patterns matched no enabled region' }),
          )
          break
      }
    })
  })
})
