import { describe, expect, inject, it } from 'vitest'
import { motoRequired, skipWarning } from './moto.ts'
import { type MotoCommand, MotoUnavailableError, motoCommands, startMotoServer } from './moto-server.ts'

const command = (file: string, args: string[]): MotoCommand => ({
  label: `${file} ${args.join(' ')}`,
  file,
  args,
})

const answers = async (endpoint: string): Promise<boolean> => {
  try {
    const response = await fetch(`${endpoint}/moto-api/`, { signal: AbortSignal.timeout(2_000) })
    await response.body?.cancel()
    return true
  } catch {
    return false
  }
}

describe('startMotoServer', () => {
  it.skipIf(inject('motoEndpoint') === undefined)(
    'starts moto on a loopback port it reports, and stop() shuts it down',
    async () => {
      const server = await startMotoServer()
      expect(server.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(server.endpoint).not.toBe(inject('motoEndpoint'))
      expect(await answers(server.endpoint)).toBe(true)

      await server.stop()

      expect(await answers(server.endpoint)).toBe(false)
    },
  )

  it('reports every command it tried when none starts', async () => {
    const attempt = startMotoServer([
      command('/nonexistent/moto_server', []),
      command(process.execPath, ['-e', 'process.exit(3)']),
    ])

    await expect(attempt).rejects.toBeInstanceOf(MotoUnavailableError)
    await expect(attempt).rejects.toThrow(/\/nonexistent\/moto_server.*ENOENT[\s\S]*exited with code 3/)
  })

  it('gives up on a process that never prints the ready banner, and kills it', async () => {
    const silent = command(process.execPath, [
      '-e',
      'console.log("pid=" + process.pid); setInterval(() => {}, 1000)',
    ])

    const error = await startMotoServer([silent], 1_000).catch((e: unknown) => e)

    expect(error).toBeInstanceOf(MotoUnavailableError)
    expect(String(error)).toMatch(/no "Running on" banner within 1000 ms/)
    const pid = Number(/pid=(\d+)/.exec(String(error))?.[1])
    expect(pid).toBeGreaterThan(0)
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/)
  })

  it('falls back to python3 -m moto.server when moto_server is not on PATH', () => {
    expect(motoCommands('/nonexistent').map((c) => c.label)).toEqual(['python3 -m moto.server'])
  })
})

describe('motoRequired', () => {
  it.each([
    [{ CI: 'true' }, true],
    [{ CI: '1' }, true],
    [{ CI: 'TRUE' }, true],
    [{ SPOTSWAP_REQUIRE_MOTO: '1' }, true],
    [{ CI: 'false' }, false],
    [{}, false],
  ])('is %o -> %s', (env, required) => {
    expect(motoRequired(env)).toBe(required)
  })
})

describe('skipWarning', () => {
  it('names the skipped suites, the reason and how to install moto', () => {
    const warning = skipWarning(new MotoUnavailableError(['moto_server: spawn moto_server ENOENT']), [
      'test/e2e/replacer.test.ts',
    ])

    expect(warning).toContain('SKIPPED')
    expect(warning).toContain('test/e2e/replacer.test.ts')
    expect(warning).toContain('spawn moto_server ENOENT')
    expect(warning).toContain("pip install 'moto[server]'")
  })
})
