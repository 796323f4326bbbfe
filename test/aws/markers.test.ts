import {
  CreateOrUpdateTagsCommand as CreateOrUpdateTags,
  DescribeAutoScalingGroupsCommand,
} from '@aws-sdk/client-auto-scaling'
import { CreateTagsCommand as CreateTags } from '@aws-sdk/client-ec2'
import { GenerateMacCommand, KMSClient, VerifyMacCommand } from '@aws-sdk/client-kms'
import { mockClient } from 'aws-sdk-client-mock'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAwsCloud } from '../../lambdas/aws/cloud.ts'
import { createAdapterCaches } from '../../lambdas/aws/context.ts'
import { markerMessage } from '../../lambdas/core/markers.ts'
import { autoScalingMock, awsError, ec2Mock as ec2, REGION, resetMocks } from './support.ts'

const kmsMock = mockClient(KMSClient)
const KEY = 'arn:aws:kms:eu-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab'
const GROUP_ARN = `arn:aws:autoscaling:${REGION}:111122223333:autoScalingGroup:5ad4c7c7-0000-4000-8000-000000000001:autoScalingGroupName/web`
const MAC = new Uint8Array(32).fill(7)
const MAC_TEXT = Buffer.from(MAC).toString('base64url')

const adapter = (markerKeyArn: string | null = KEY) => {
  const calls: string[] = []
  const cloud = createAwsCloud(REGION, {
    onApiCall: (name) => calls.push(name),
    logger: { info: () => {}, warn: () => {} },
    caches: createAdapterCaches(),
    markerKeyArn: markerKeyArn ?? undefined,
  })
  return { cloud, calls }
}

const instanceMarker = (value: string) => ({
  resource: { kind: 'instance', id: 'i-0123456789abcdef0' } as const,
  key: 'spotswap:interruption-warned',
  value,
})

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes)

beforeEach(() => {
  resetMocks()
  kmsMock.reset()
  autoScalingMock.on(DescribeAutoScalingGroupsCommand).resolves({
    AutoScalingGroups: [{ AutoScalingGroupName: 'web', AutoScalingGroupARN: GROUP_ARN } as never],
  })
})
afterEach(() => kmsMock.reset())

describe('signing markers', () => {
  it('signs a group marker over the group ARN, the key and the value, in the key’s account', async () => {
    kmsMock.on(GenerateMacCommand).resolves({ Mac: MAC })
    autoScalingMock.on(CreateOrUpdateTags).resolves({})
    const { cloud } = adapter()
    await cloud.tagGroup('web', { 'spotswap:swap': 'v2 id=s1 phase=attaching owner=2 pairs=1' })
    const request = kmsMock.commandCalls(GenerateMacCommand)[0]?.args[0].input
    expect(request?.KeyId).toBe(KEY)
    expect(request?.MacAlgorithm).toBe('HMAC_SHA_256')
    expect(text(request?.Message)).toBe(
      markerMessage(
        { account: '111122223333', region: REGION },
        `group:${GROUP_ARN}`,
        'spotswap:swap',
        'v2 id=s1 phase=attaching owner=2 pairs=1',
      ),
    )
    const written = autoScalingMock.commandCalls(CreateOrUpdateTags)[0]?.args[0].input.Tags?.[0]?.Value
    expect(written).toBe(`v2 id=s1 phase=attaching owner=2 pairs=1 mac=${MAC_TEXT}`)
    expect(written?.length).toBeLessThanOrEqual(256)
  })

  it('signs each instance on its own, and leaves other tags unsigned and batched', async () => {
    kmsMock.on(GenerateMacCommand).resolves({ Mac: MAC })
    const { cloud, calls } = adapter()
    ec2.on(CreateTags).resolves({})
    await cloud.tagInstances(['i-1', 'i-2'], { 'spotswap:joined-group': 'web' })
    expect(
      kmsMock.commandCalls(GenerateMacCommand).map((c) => text(c.args[0].input.Message).split('\n')[2]),
    ).toEqual(['instance:i-1', 'instance:i-2'])
    expect(calls.filter((c) => c === 'ec2:CreateTags')).toHaveLength(2)
    await cloud.tagInstances(['i-1', 'i-2'], { team: 'payments' })
    expect(calls.filter((c) => c === 'ec2:CreateTags')).toHaveLength(3)
  })

  it('refuses to write a marker without a key, and writes nothing', async () => {
    const { cloud } = adapter(null)
    await expect(
      cloud.tagGroup('web', { 'spotswap:swap': 'v2 phase=waiting owner=1 pairs=0' }),
    ).rejects.toThrow(/MARKER_KEY_ARN/)
    expect(autoScalingMock.commandCalls(CreateOrUpdateTags)).toHaveLength(0)
  })
})

describe('verifying markers', () => {
  it('asks KMS once per marker value in a container, and believes what verifies', async () => {
    kmsMock.on(VerifyMacCommand).resolves({ MacValid: true })
    const { cloud, calls } = adapter()
    const marker = instanceMarker(`2026-01-01T00:00:00.000Z mac=${MAC_TEXT}`)
    expect(await cloud.verifyMarkers([marker])).toEqual(['valid'])
    expect(await cloud.verifyMarkers([marker])).toEqual(['valid'])
    expect(calls.filter((c) => c === 'kms:VerifyMac')).toHaveLength(1)
    const request = kmsMock.commandCalls(VerifyMacCommand)[0]?.args[0].input
    expect(Buffer.from(request?.Mac ?? []).equals(Buffer.from(MAC))).toBe(true)
    expect(text(request?.Message).split('\n').slice(2)).toEqual([
      'instance:i-0123456789abcdef0',
      'spotswap:interruption-warned',
      '2026-01-01T00:00:00.000Z',
    ])
  })

  it.each([
    [
      'a value without a MAC is unsigned, without asking KMS',
      '2026-01-01T00:00:00.000Z',
      undefined,
      'unsigned',
      0,
    ],
    ['KMSInvalidMacException is a bad MAC', `x mac=${MAC_TEXT}`, 'KMSInvalidMacException', 'bad-mac', 1],
    ['throttling is unverifiable', `x mac=${MAC_TEXT}`, 'ThrottlingException', 'unverifiable', 1],
    ['a disabled key is unverifiable', `x mac=${MAC_TEXT}`, 'DisabledException', 'unverifiable', 1],
  ])('%s', async (_, value, error, verdict, kmsCalls) => {
    if (error !== undefined) kmsMock.on(VerifyMacCommand).rejects(awsError(error))
    const { cloud } = adapter()
    expect(await cloud.verifyMarkers([instanceMarker(value)])).toEqual([verdict])
    expect(kmsMock.commandCalls(VerifyMacCommand)).toHaveLength(kmsCalls)
  })

  it('keeps a bad MAC’s verdict but asks again about one it could not verify', async () => {
    kmsMock.on(VerifyMacCommand).rejectsOnce(awsError('ThrottlingException')).resolves({ MacValid: true })
    const { cloud } = adapter()
    const marker = instanceMarker(`x mac=${MAC_TEXT}`)
    expect(await cloud.verifyMarkers([marker])).toEqual(['unverifiable'])
    expect(await cloud.verifyMarkers([marker])).toEqual(['valid'])
  })

  it('believes nothing signed without a key', async () => {
    const { cloud } = adapter(null)
    expect(await cloud.verifyMarkers([instanceMarker(`x mac=${MAC_TEXT}`)])).toEqual(['unverifiable'])
    expect(kmsMock.commandCalls(VerifyMacCommand)).toHaveLength(0)
  })
})
