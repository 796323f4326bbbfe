import { describe, expect, it } from 'vitest'
import { TAG_REVERT } from '../../lambdas/core/revert/marker.ts'
import { regionWork } from '../../lambdas/replacer/event-registry.ts'
import { createRevertCommand, type QueuedRequest } from '../../tools/cli/revert-command.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet } from '../replacer/support.ts'
import { recordingIo } from './support.ts'

const NOW = new Date('2026-01-01T00:00:00Z')

const converged = (): FakeCloud => {
  const cloud = cloudWithFleet(1, { maxSize: 4 })
  cloud.addInstance({ group: 'web', lifecycle: 'spot' })
  return cloud
}

const command = (cloud: FakeCloud, sent: { url: string; request: QueuedRequest }[]) =>
  createRevertCommand({
    cloud: async () => cloud,
    send: async (url, request) => {
      sent.push({ url, request })
    },
    now: () => NOW,
  })

describe('spotswap revert', () => {
  it('sends a run request with revert to the fan-out queue, in the group’s lane, and writes nothing itself', async () => {
    const cloud = converged()
    const sent: { url: string; request: QueuedRequest }[] = []
    const { io, output } = recordingIo({ FANOUT_QUEUE_URL: 'https://sqs/fanout.fifo' })
    expect(await command(cloud, sent).run(['--region', 'us-east-1', '--group', 'web'], io)).toBe(0)
    expect(sent).toHaveLength(1)
    expect(sent[0]?.url).toBe('https://sqs/fanout.fifo')
    const body = JSON.parse(sent[0]?.request.body ?? '{}')
    expect(regionWork.parseDetail(body.detail)).toMatchObject({
      ok: true,
      detail: { region: 'us-east-1', groups: ['web'], revert: true },
    })
    expect(cloud.mutations).toEqual([])
    expect(output().out).toContain('requested')
  })

  it('shows what the revert would do in a dry run, sending and writing nothing', async () => {
    const cloud = converged()
    const sent: { url: string; request: QueuedRequest }[] = []
    const { io, output } = recordingIo()
    expect(await command(cloud, sent).run(['--region', 'us-east-1', '--group', 'web', '--dry-run'], io)).toBe(
      0,
    )
    expect(sent).toEqual([])
    expect(cloud.mutations).toEqual([])
    expect(cloud.group('web').tags[TAG_REVERT]).toBeUndefined()
    expect(output().out).toMatch(/reverting .*desired capacity raised to 3/)
    expect(output().out).toContain('would revert')
  })

  it.each([
    [['--group', 'web'], '--region is required'],
    [['--region', 'us-east-1'], '--group is required'],
    [['--region', 'us-east-1', '--group', 'web'], '--queue-url is required'],
    [['--region', 'mars', '--group', 'web'], 'not a region name'],
  ])('refuses %j: %s', async (argv, message) => {
    const sent: { url: string; request: QueuedRequest }[] = []
    await expect(command(converged(), sent).run(argv, recordingIo().io)).rejects.toThrow(message)
    expect(sent).toEqual([])
  })
})
