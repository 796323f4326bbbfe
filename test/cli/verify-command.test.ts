import { describe, expect, it } from 'vitest'
import { createVerifyCommand, type VerifyDeps } from '../../tools/cli/verify-command.ts'
import { UsageError } from '../../tools/shared/args.ts'

/** Deps that fail the test if verify reaches for the account. */
const untouchable = (): { deps: VerifyDeps; touched: string[] } => {
  const touched: string[] = []
  const refuse = (what: string) => async () => {
    touched.push(what)
    throw new Error(`verify reached for ${what}`)
  }
  return {
    touched,
    deps: {
      clients: refuse('clients'),
      cloud: refuse('cloud'),
      preflightClients: refuse('preflightClients'),
      now: () => new Date('2026-11-27T10:00:00Z'),
      sleep: async () => {},
    },
  }
}

const io = () => {
  let out = ''
  return {
    io: {
      out: (text: string) => {
        out += text
      },
      err: () => {},
      progressStream: undefined,
      writeFile: () => {},
      env: {},
    },
    out: () => out,
  }
}

describe('spotswap verify options', () => {
  it.each([
    [[], '--region is required'],
    [
      ['--region', 'us-east-1', '--run-id', 'Run_1'],
      "--run-id must be 1 to 12 lowercase letters or digits, got 'Run_1'",
    ],
    [['--region', 'us-east-1', '--cleanup', '--run-id', 'a-very-long-run-id'], '--run-id must be 1 to 12'],
    [
      ['--region', 'us-east-1', '--deadline-minutes', '0'],
      '--deadline-minutes must be an integer of at least 1',
    ],
    [['--region', 'us-east-1', '--load-balancer'], 'unknown option --load-balancer'],
  ])('refuses %j before touching the account: %s', async (argv, message) => {
    const { deps, touched } = untouchable()
    const run = createVerifyCommand(deps).run(argv, io().io)
    await expect(run).rejects.toThrow(UsageError)
    await expect(run).rejects.toThrow(message)
    expect(touched).toEqual([])
  })

  it('prints its help, naming what it creates and that it deletes it', async () => {
    const { deps, touched } = untouchable()
    const out = io()
    expect(await createVerifyCommand(deps).run(['--help'], out.io)).toBe(0)
    expect(out.out()).toContain('spotswap:verify-run=<run id>')
    expect(out.out()).toContain('--with-load-balancer')
    expect(touched).toEqual([])
  })
})
