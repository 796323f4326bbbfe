import { describe, expect, it } from 'vitest'
import { groupRunRequest } from '../../lambdas/core/events/definitions.ts'
import { TAG_REVERT } from '../../lambdas/core/revert/marker.ts'
import { createRevertCommand } from '../../tools/cli/revert-command.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet } from '../replacer/support.ts'
import { recordingIo } from './support.ts'

const NOW = new Date('2026-01-01T00:00:00Z')

const converged = (): FakeCloud => {
  const cloud = cloudWithFleet(1, { maxSize: 4 })
  cloud.addInstance({ group: 'web', lifecycle: 'spot' })
  return cloud
}

const command = (cloud: FakeCloud) => createRevertCommand({ cloud: async () => cloud, now: () => NOW })

describe('spotswap revert', () => {
  it('prints the invocation that delivers a run request with revert to the replacer, and writes nothing', async () => {
    const cloud = converged()
    const { io, output } = recordingIo()
    expect(
      await command(cloud).run(
        ['--region', 'us-east-1', '--group', 'web', '--function', 'spotswap-replacer'],
        io,
      ),
    ).toBe(0)
    const printed = output().out
    expect(printed).toContain('aws lambda invoke --function-name spotswap-replacer --invocation-type Event')
    const payload = JSON.parse(/--payload '([^']+)'/.exec(printed)?.[1] ?? '{}')
    expect(payload).toMatchObject({
      source: 'spotswap',
      'detail-type': 'Group Run Request',
      region: 'us-east-1',
    })
    expect(groupRunRequest.parseDetail(payload.detail)).toEqual({
      ok: true,
      detail: { groupName: 'web', revert: true },
    })
    expect(cloud.mutations).toEqual([])
  })

  it('shows what the revert would do in a dry run, writing nothing', async () => {
    const cloud = converged()
    const { io, output } = recordingIo()
    expect(await command(cloud).run(['--region', 'us-east-1', '--group', 'web', '--dry-run'], io)).toBe(0)
    expect(cloud.mutations).toEqual([])
    expect(cloud.group('web').tags[TAG_REVERT]).toBeUndefined()
    expect(output().out).toMatch(/reverting .*desired capacity raised to 3/)
    expect(output().out).toContain('would revert')
  })

  it.each([
    [['--group', 'web'], '--region is required'],
    [['--region', 'us-east-1'], '--group is required'],
    [['--region', 'mars', '--group', 'web'], 'not a region name'],
  ])('refuses %j: %s', async (argv, message) => {
    await expect(command(converged()).run(argv, recordingIo().io)).rejects.toThrow(message)
  })
})
