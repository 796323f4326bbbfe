import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/** Runs bin/app.ts as `cdk synth` does: context in CDK_CONTEXT_JSON, output in CDK_OUTDIR. */
const synth = (context: Record<string, string>) => {
  const outdir = mkdtempSync(join(tmpdir(), 'spotswap-app-'))
  try {
    return spawnSync(join('node_modules', '.bin', 'tsx'), ['bin/app.ts'], {
      env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_OUTDIR: outdir },
      encoding: 'utf8',
      timeout: 60_000,
    })
  } finally {
    rmSync(outdir, { recursive: true, force: true })
  }
}

describe('bin/app.ts with bad settings', () => {
  it.each([
    [{ MIN_ON_DEMAND_PERCENTAGE: '150' }, 'MIN_ON_DEMAND_PERCENTAGE="150": expected a number from 0 to 100'],
    [
      { MIN_ONDEMAND_NUMBER: '1' },
      'MIN_ONDEMAND_NUMBER="1": not a setting; did you mean MIN_ON_DEMAND_NUMBER?',
    ],
  ])(
    '%j ends the synth with one line naming the setting and value, and no stack trace',
    (context, line) => {
      const result = synth(context)
      expect(result.status).toBe(1)
      expect(result.stderr).toContain(`spotswap: `)
      expect(result.stderr).toContain(line)
      expect(result.stderr).not.toMatch(/^\s+at /m)
    },
    60_000,
  )
})
