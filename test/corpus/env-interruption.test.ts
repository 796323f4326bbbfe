/**
 * The environment corpus through the interruption handler, with a real interruption warning for a
 * spot member of a managed group. A fatal misconfiguration: the start-up log names the variable, the
 * event is answered with a no-op naming it, no AWS call is made, nothing throws. Anything else: the
 * fallback is used and the member is handled.
 */
import { describe, expect, it } from 'vitest'
import { type EnvEntry, loadEnvCorpus } from './support/env-corpus.ts'
import { interruptionHarness, interruptionWarning } from './support/handlers.ts'
import { buildWorld, FLEET_IDS } from './support/worlds.ts'

const corpus = loadEnvCorpus()
const rows = (entries: readonly EnvEntry[]): [string, EnvEntry][] => entries.map((e) => [e.name, e])
const fatalNames = (entry: EnvEntry) => entry.expect.errors.filter((e) => e.fatal).map((e) => e.name)
const fatalEntries = corpus.filter((e) => e.expect.behaviour === 'no-action')
const [member] = FLEET_IDS

const setup = (entry: EnvEntry) => {
  const { cloud } = buildWorld('us-east-1')
  return { cloud, harness: interruptionHarness([cloud], { AWS_REGION: 'us-east-1', ...entry.env }) }
}

describe('environment corpus through the interruption handler', () => {
  describe('a fatal setting: named at start-up and in every answer, no AWS call, no throw', () => {
    it.each(rows(fatalEntries))('%s', async (_, entry) => {
      const { cloud, harness } = setup(entry)
      for (const name of fatalNames(entry)) {
        expect(harness.lines).toContainEqual(
          expect.objectContaining({ attributes: expect.objectContaining({ name, fatal: true }) }),
        )
      }
      for (let i = 0; i < 3; i++) {
        const summary = await harness.handle(interruptionWarning(member))
        expect(summary.results).toEqual([
          expect.objectContaining({ outcome: 'ignored', reason: 'configuration-invalid', actions: [] }),
        ])
        for (const name of fatalNames(entry)) expect(summary.results[0]?.detail).toContain(name)
      }
      expect(cloud.calls).toEqual([])
      expect(harness.cloudsAsked).toEqual([])
    })
  })

  describe('a fatal setting is logged at start-up as an error, without claiming a default is used', () => {
    it.each(rows(fatalEntries))('%s', (_, entry) => {
      const { harness } = setup(entry)
      for (const name of fatalNames(entry)) {
        const about = harness.lines.filter((l) => l.attributes.name === name)
        expect(about).toContainEqual(expect.objectContaining({ level: 'error' }))
        for (const line of about) expect(line.message).not.toContain('using the default')
      }
    })
  })

  describe('a non-fatal setting: a warning naming it and its fallback, and the member is handled', () => {
    it.each(rows(corpus.filter((e) => e.expect.behaviour !== 'no-action')))('%s', async (_, entry) => {
      const { cloud, harness } = setup(entry)
      for (const error of entry.expect.errors) {
        expect(harness.lines).toContainEqual({
          level: 'warn',
          message: expect.stringContaining('invalid configuration value'),
          attributes: expect.objectContaining({ name: error.name, fallback: error.fallback, fatal: false }),
        })
      }
      const [result] = (await harness.handle(interruptionWarning(member))).results
      switch (entry.expect.behaviour) {
        case 'acts':
          expect(result).toMatchObject({ outcome: 'acted', reason: 'interrupted-member' })
          // A settled member carries no launch tag to remove first: it only leaves, through Auto Scaling.
          expect(cloud.mutations.map((m) => m.method)).toEqual(['terminateInGroup'])
          break
        case 'dry-run':
          expect(result).toMatchObject({ outcome: 'dry-run', reason: 'interrupted-member' })
          expect(cloud.mutations).toEqual([])
          break
        case 'no-region':
          expect(result).toMatchObject({ outcome: 'ignored', reason: 'region-not-enabled' })
          expect(cloud.calls).toEqual([])
          break
      }
    })
  })
})
