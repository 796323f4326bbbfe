import { describe, expect, it } from 'vitest'
import { groupRunRequest } from '../../lambdas/core/events/definitions.ts'
import { TAG_REVERT } from '../../lambdas/core/revert/marker.ts'
import { createRevertCommand } from '../../tools/cli/revert-command.ts'
import type { RevertDelivery } from '../../tools/cli/revert-deliver.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet } from '../replacer/support.ts'
import { recordingIo } from './support.ts'

const NOW = new Date('2026-01-01T00:00:00Z')

const converged = (): FakeCloud => {
  const cloud = cloudWithFleet(1, { maxSize: 4 })
  cloud.addInstance({ group: 'web', lifecycle: 'spot' })
  return cloud
}

interface Delivered {
  readonly region: string
  readonly fn: string
  readonly payload: string
}

/** A delivery that records what it was asked, or fails as Lambda or CloudFormation would. */
const recordingDelivery = (failure?: string) => {
  const delivered: Delivered[] = []
  const lookups: string[] = []
  const delivery: RevertDelivery = {
    replacerFunction: async (region) => {
      lookups.push(region)
      if (failure !== undefined) throw new Error(failure)
      return 'SpotSwap-SpotSwapReplacerB66F608F-abc'
    },
    invoke: async (region, fn, payload) => {
      delivered.push({ region, fn, payload })
    },
  }
  return { delivery, delivered, lookups }
}

const command = (cloud: FakeCloud, delivery: RevertDelivery = recordingDelivery().delivery) =>
  createRevertCommand({ cloud: async () => cloud, now: () => NOW, delivery: async () => delivery })

const revertRequested = (payload: string): void => {
  const event = JSON.parse(payload)
  expect(event).toMatchObject({ source: 'spotswap', 'detail-type': 'Group Run Request', region: 'us-east-1' })
  expect(groupRunRequest.parseDetail(event.detail)).toEqual({
    ok: true,
    detail: { groupName: 'web', revert: true },
  })
}

describe('spotswap revert', () => {
  it('invokes the home stack’s replacer with a run request with revert, and writes nothing itself', async () => {
    const cloud = converged()
    const { delivery, delivered, lookups } = recordingDelivery()
    const { io, output } = recordingIo({ AWS_REGION: 'eu-west-1' })
    expect(await command(cloud, delivery).run(['--region', 'us-east-1', '--group', 'web'], io)).toBe(0)
    expect(lookups).toEqual(['eu-west-1'])
    expect(delivered.map(({ region, fn }) => ({ region, fn }))).toEqual([
      { region: 'eu-west-1', fn: 'SpotSwap-SpotSwapReplacerB66F608F-abc' },
    ])
    revertRequested(delivered[0]?.payload ?? '{}')
    expect(output().out).toContain('Asked SpotSwap-SpotSwapReplacerB66F608F-abc (eu-west-1) to revert web')
    expect(cloud.mutations).toEqual([])
  })

  it('invokes the function named, in the home region named, without looking it up', async () => {
    const { delivery, delivered, lookups } = recordingDelivery()
    const argv = [
      '--region',
      'us-east-1',
      '--group',
      'web',
      '--function',
      'my-replacer',
      '--home-region',
      'us-west-2',
    ]
    expect(await command(converged(), delivery).run(argv, recordingIo().io)).toBe(0)
    expect(lookups).toEqual([])
    expect(delivered.map(({ region, fn }) => ({ region, fn }))).toEqual([
      { region: 'us-west-2', fn: 'my-replacer' },
    ])
  })

  it('says the request was not delivered, and fails, when the replacer cannot be found', async () => {
    const { delivery, delivered } = recordingDelivery('no replacer function in stack SpotSwap')
    const { io, output } = recordingIo()
    expect(await command(converged(), delivery).run(['--region', 'us-east-1', '--group', 'web'], io)).toBe(1)
    expect(delivered).toEqual([])
    expect(output().err).toContain(
      'the request for web was not delivered, nothing changed: no replacer function',
    )
  })

  it('prints the invocation that delivers it with --print, delivering nothing', async () => {
    const cloud = converged()
    const { delivery, delivered } = recordingDelivery()
    const { io, output } = recordingIo()
    const argv = ['--region', 'us-east-1', '--group', 'web', '--function', 'spotswap-replacer', '--print']
    expect(await command(cloud, delivery).run(argv, io)).toBe(0)
    const printed = output().out
    expect(printed).toContain('aws lambda invoke --function-name spotswap-replacer --invocation-type Event')
    revertRequested(/--payload '([^']+)'/.exec(printed)?.[1] ?? '{}')
    expect(delivered).toEqual([])
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

  it('reads nothing in a dry run whose settings spotswap cannot read, and says which', async () => {
    const cloud = converged()
    const { io, output } = recordingIo({ TAG_FILTERING_MODE: 'sometimes' })
    expect(await command(cloud).run(['--region', 'us-east-1', '--group', 'web', '--dry-run'], io)).toBe(2)
    expect(cloud.calls).toEqual([])
    expect(output().err).toContain('spotswap revert: TAG_FILTERING_MODE="sometimes" is not')
  })

  it.each([
    [['--group', 'web'], '--region is required'],
    [['--region', 'us-east-1'], '--group is required'],
    [['--region', 'mars', '--group', 'web'], 'not a region name'],
    [
      ['--region', 'us-east-1', '--group', 'web', '--home-region', 'home'],
      '--home-region "home" is not a region name',
    ],
  ])('refuses %j: %s', async (argv, message) => {
    await expect(command(converged()).run(argv, recordingIo().io)).rejects.toThrow(message)
  })
})
