import { describe, expect, it } from 'vitest'
import { FAULT_LEVELS } from '../../tools/bench/fault-sweep.ts'
import { SIMULATED_POLICIES } from '../../tools/bench/policies.ts'
import { type RaceResult, raceText } from '../../tools/bench/race.ts'
import { POLICY_KEYS } from '../../tools/bench/results.ts'
import { runScenario } from '../../tools/bench/scenario-run.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { loadScenarioFile } from '../../tools/sim/scenario/load.ts'
import { runCli, tempDir, writeJson } from '../cli/support.ts'
import { group, rawScenario } from '../sim/support.ts'

/** One hour of a two-instance group: every policy acts, the run takes seconds. */
const tinyFile = (name: string, desired = 2): string =>
  writeJson(tempDir(), `${name}.json`, rawScenario([group('web', { desired })], { name, durationHours: 1 }))

const policyRow = (policy: string) => new RegExp(`^${policy} +-?\\d+\\.\\d\\d% +-?\\d+\\.\\d\\d×`, 'm')

describe('spotswap bench --scenario', () => {
  it('races every policy and the oracle on a file, prints the bench table, writes nothing', async () => {
    const file = tinyFile('tiny')
    const run = await runCli(['bench', '--scenario', file])
    expect(run.code).toBe(0)
    expect(run.out).toContain(`tiny (${file})`)
    expect(run.out).toMatch(/^Policy +Savings +× +Fair savings +×/m)
    for (const policy of POLICY_KEYS) expect(run.out).toMatch(policyRow(policy))
    expect(run.out).toMatch(/^on-demand +0\.00% +0\.00×/m)
    expect(run.out).toContain("Oracle held to Auto Scaling's zone balance")
    expect(run.out).toContain("one tenth of desired capacity every 60 s: the model's assumption")
    // None of the full bench: no fault sweep, no scale or Lambda figures, no targets, no file.
    expect(run.out).not.toMatch(/under faults|^Scale:|^Lambda |^Targets/m)
    expect(run.files.size).toBe(0)
  })

  it('prints one table per file, in the order given', async () => {
    const first = tinyFile('first')
    const second = tinyFile('second', 3)
    const run = await runCli(['bench', '--scenario', first, '--scenario', second])
    expect(run.code).toBe(0)
    expect(run.out.match(/^Policy +Savings/gm)).toHaveLength(2)
    expect(run.out.match(/^oracle /gm)).toHaveLength(2)
    expect(run.out.indexOf(`first (${first})`)).toBeLessThan(run.out.indexOf(`second (${second})`))
  })

  it('writes the figures to --out, and only there', async () => {
    const file = tinyFile('tiny')
    const run = await runCli(['bench', '--scenario', file, '--out', 'race.json'])
    expect(run.code).toBe(0)
    expect([...run.files.keys()]).toEqual(['race.json'])
    const written = JSON.parse(run.files.get('race.json') ?? '{}')
    expect(written.scenarios[file].scenario).toBe('tiny')
    expect(Object.keys(written.scenarios[file].figures)).toEqual([...POLICY_KEYS])
    expect(written.scenarios[file].figures['on-demand'].savingsPct).toBe(0)
  })

  it('names the file and the field of a malformed scenario, exits 2 and runs nothing', async () => {
    const good = tinyFile('good')
    const bad = writeJson(tempDir(), 'bad.json', rawScenario([group('web', { desired: 'two' })]))
    const run = await runCli(['bench', '--scenario', good, '--scenario', bad])
    expect(run.code).toBe(2)
    expect(run.err).toContain(`${bad} is not a valid scenario:`)
    expect(run.err).toMatch(
      /\$\.regions\["us-east-1"\]\.groups\[0\]\.desired: expected an integer .*got "two"/,
    )
    expect(run.err).not.toMatch(/^\s+at /m)
    expect(run.err).not.toContain('bench: ')
    expect(run.out).toBe('')
    expect(run.files.size).toBe(0)
  })

  it('says a file that is not JSON is not a readable scenario', async () => {
    const dir = tempDir()
    const run = await runCli(['bench', '--scenario', `${dir}/missing.json`])
    expect(run.code).toBe(2)
    expect(run.err).toContain(
      `${dir}/missing.json is not a valid scenario:\n  $: expected a readable JSON file`,
    )
  })

  it('adds the fault sweep of each file with --faults: every policy at every level', async () => {
    const run = await runCli(['bench', '--scenario', tinyFile('tiny'), '--faults'])
    expect(run.code).toBe(0)
    expect(run.out).toMatch(/^tiny under faults\nPolicy +Faults +Converged/m)
    for (const policy of Object.keys(SIMULATED_POLICIES))
      for (const level of Object.keys(FAULT_LEVELS))
        expect(run.out).toMatch(new RegExp(`^${policy} +${level} +\\S+( min)? \\[`, 'm'))
    expect(run.files.size).toBe(0)
  }, 120_000)

  it.each([
    [['--quick'], '--quick is for the full bench, not with --scenario'],
    [['--jobs', '2'], '--jobs is for the full bench, not with --scenario'],
    [['--markdown', 'r.md'], '--markdown is for the full bench, not with --scenario'],
  ])('refuses %j with --scenario rather than ignore it', async (extra, message) => {
    const run = await runCli(['bench', '--scenario', 'any.json', ...extra])
    expect(run.code).toBe(2)
    expect(run.err).toContain(message)
  })

  it('refuses the same file twice and --faults without --scenario', async () => {
    const twice = await runCli(['bench', '--scenario', 'a.json', '--scenario', 'a.json'])
    expect(twice.code).toBe(2)
    expect(twice.err).toContain('--scenario: a.json given twice')
    const faults = await runCli(['bench', '--faults'])
    expect(faults.code).toBe(2)
    expect(faults.err).toContain('--faults needs --scenario FILE')
  })

  it('describes the race in its help', async () => {
    const help = await runCli(['bench', '--help'])
    expect(help.out).toMatch(/--scenario FILE +race the policies on these scenario files only/)
    expect(help.out).toMatch(/--faults +with --scenario: also the fault sweep/)
  })
})

describe('raceText', () => {
  it('says which policies broke an invariant, and says nothing when none did', async () => {
    const catalog = embeddedCatalog()
    const { figures } = await runScenario(loadScenarioFile(tinyFile('tiny'), catalog), catalog)
    const text = (violations: RaceResult['violations']) =>
      raceText('tiny.json', { scenario: 'tiny', figures, violations })
    expect(text({ spotswap: 0, autospotting: 3, 'on-demand': 0 })).toMatch(
      /^Invariant violations: autospotting 3\.$/m,
    )
    expect(text({ spotswap: 0, autospotting: 0 })).not.toContain('Invariant violations')
  })
})
