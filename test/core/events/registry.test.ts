import { describe, expect, it } from 'vitest'
import {
  groupRunRequest,
  groupRunRequestEvent,
  instanceLaunchSuccessful,
  rebalanceRecommendation,
  scheduledEvent,
  spotInterruptionWarning,
} from '../../../lambdas/core/events/definitions.ts'
import { parseInvocation, unwrapInvocation } from '../../../lambdas/core/events/invocation.ts'
import { createEventRegistry, type EventDefinition } from '../../../lambdas/core/events/registry.ts'
import * as build from '../../events/builders.ts'

const registry = createEventRegistry([
  spotInterruptionWarning,
  rebalanceRecommendation,
  instanceLaunchSuccessful,
  scheduledEvent,
])

describe('event registry', () => {
  describe('with the AWS sample events', () => {
    it('reads a spot interruption warning', () => {
      expect(registry.parse(build.samples.spotInterruption)).toEqual({
        kind: 'spot-interruption',
        envelope: {
          id: '12345678-1234-1234-1234-123456789012',
          source: 'aws.ec2',
          detailType: 'EC2 Spot Instance Interruption Warning',
          account: '123456789012',
          region: 'us-east-2',
          time: new Date('2026-03-02T14:05:21Z'),
          resources: ['arn:aws:ec2:us-east-2a:instance/i-1234567890abcdef0'],
        },
        detail: { instanceId: 'i-1234567890abcdef0', instanceAction: 'terminate' },
      })
    })

    it('reads a rebalance recommendation', () => {
      const event = registry.parse(build.samples.rebalance)
      expect(event.kind).toBe('rebalance-recommendation')
      expect(event).toMatchObject({
        detail: { instanceId: 'i-1234567890abcdef0' },
        envelope: { region: 'us-east-2' },
      })
    })

    it('reads an Auto Scaling launch-successful event with its group name', () => {
      expect(registry.parse(build.samples.launchSuccessful)).toMatchObject({
        kind: 'instance-launch-successful',
        envelope: { source: 'aws.autoscaling', region: 'us-west-2' },
        detail: { groupName: 'my-auto-scaling-group', instanceId: 'i-1234567890abcdef0' },
      })
    })

    it('reads a scheduled event, whose detail is empty', () => {
      expect(registry.parse(build.samples.scheduled)).toMatchObject({
        kind: 'scheduled',
        envelope: {
          source: 'aws.events',
          region: 'us-east-1',
          resources: [expect.stringContaining('rule/')],
        },
        detail: {},
      })
    })
  })

  it.each(['terminate', 'stop', 'hibernate'])('accepts instance-action %s', (action) => {
    expect(registry.parse(build.spotInterruptionWarning({ action }))).toMatchObject({
      detail: { instanceAction: action },
    })
  })

  it('accepts old 8-digit instance ids', () => {
    expect(registry.parse(build.rebalanceRecommendation({ instanceId: 'i-0123abcd' }))).toMatchObject({
      detail: { instanceId: 'i-0123abcd' },
    })
  })

  it('keeps a missing or unparsable time as undefined instead of rejecting the event', () => {
    const event = registry.parse({ ...build.spotInterruptionWarning(), time: 'yyyy-mm-ddThh:mm:ssZ' })
    expect(event).toMatchObject({ kind: 'spot-interruption', envelope: { time: undefined } })
  })

  it('turns a well-formed event it has no row for into a typed no-op', () => {
    const onlyInterruptions = createEventRegistry([spotInterruptionWarning])
    expect(onlyInterruptions.parse(build.samples.scheduled)).toEqual({
      kind: 'unrecognized',
      envelope: expect.objectContaining({
        source: 'aws.events',
        detailType: 'Scheduled Event',
        region: 'us-east-1',
      }),
    })
  })

  it('matches on source and detail-type together, not detail-type alone', () => {
    const spoofed = { ...build.spotInterruptionWarning(), source: 'my.app' }
    expect(registry.parse(spoofed).kind).toBe('unrecognized')
  })

  describe('bad input never throws and names the problem', () => {
    it.each([
      ['null', null, 'got null'],
      ['a string', 'hello', 'got string'],
      ['an array', [build.spotInterruptionWarning()], 'got an array'],
      ['a number', 42, 'got number'],
      [
        'no source',
        build.without(build.spotInterruptionWarning(), 'source'),
        "missing 'source' or 'detail-type'",
      ],
      [
        'no detail-type',
        build.without(build.spotInterruptionWarning(), 'detail-type'),
        "missing 'source' or 'detail-type'",
      ],
      ['an empty source', { ...build.spotInterruptionWarning(), source: '  ' }, "missing 'source'"],
      ['no region', build.without(build.spotInterruptionWarning(), 'region'), "missing 'region'"],
      ['no detail', build.without(build.spotInterruptionWarning(), 'detail'), "missing 'detail' object"],
      ['a detail array', { ...build.spotInterruptionWarning(), detail: [] }, "missing 'detail' object"],
      [
        'no instance-id',
        build.withDetail(build.spotInterruptionWarning(), { 'instance-id': undefined }),
        'instance-id is missing',
      ],
      [
        'a numeric instance-id',
        build.withDetail(build.rebalanceRecommendation(), { 'instance-id': 7 }),
        'instance-id is missing',
      ],
      [
        'a malformed instance-id',
        build.withDetail(build.rebalanceRecommendation(), { 'instance-id': 'i-XYZ' }),
        'not an EC2 instance id',
      ],
      [
        'an ARN for an id',
        build.withDetail(build.rebalanceRecommendation(), { 'instance-id': 'arn:aws:ec2:::instance/i-1' }),
        'not an EC2 instance id',
      ],
      [
        'no instance-action',
        build.withDetail(build.spotInterruptionWarning(), { 'instance-action': undefined }),
        'instance-action must be one of',
      ],
      [
        'an unknown instance-action',
        build.spotInterruptionWarning({ action: 'reboot' }),
        'instance-action must be one of',
      ],
      [
        'a launch event without group',
        build.withDetail(build.instanceLaunchSuccessful(), { AutoScalingGroupName: '' }),
        'AutoScalingGroupName is missing',
      ],
    ])('%s', (_name, input, problem) => {
      const event = registry.parse(input)
      expect(event.kind).toBe('malformed')
      expect(event).toMatchObject({ problem: expect.stringContaining(problem) })
    })

    it('keeps the source and detail-type of a malformed event for the log', () => {
      expect(registry.parse(build.spotInterruptionWarning({ action: 'reboot' }))).toMatchObject({
        source: 'aws.ec2',
        detailType: 'EC2 Spot Instance Interruption Warning',
      })
    })
  })

  describe('as a table other Lambdas extend', () => {
    const custom: EventDefinition<'fan-out', { region: string }> = {
      kind: 'fan-out',
      source: 'spotswap',
      detailType: 'Reconcile Region',
      parseDetail: (detail) =>
        typeof detail.target === 'string'
          ? { ok: true, detail: { region: detail.target } }
          : { ok: false, problem: 'no target' },
    }

    it('recognizes an added row alongside the built-in ones', () => {
      const extended = createEventRegistry([scheduledEvent, custom])
      const event = {
        ...build.scheduledEvent(),
        source: 'spotswap',
        'detail-type': 'Reconcile Region',
        detail: { target: 'eu-west-1' },
      }
      expect(extended.parse(event)).toMatchObject({ kind: 'fan-out', detail: { region: 'eu-west-1' } })
      expect(extended.parse(build.scheduledEvent()).kind).toBe('scheduled')
    })

    it('refuses two rows for the same source and detail-type', () => {
      expect(() =>
        createEventRegistry([
          scheduledEvent,
          { ...custom, source: 'aws.events', detailType: 'Scheduled Event' },
        ]),
      ).toThrow(/two event definitions/)
    })

    it.each(['unrecognized', 'malformed'])('refuses a row that claims the reserved kind %s', (kind) => {
      expect(() => createEventRegistry([{ ...custom, kind }])).toThrow(/reserved/)
    })
  })
})

describe('the run request spotswap sends itself', () => {
  const requests = createEventRegistry([groupRunRequest])
  const sent = groupRunRequestEvent(
    '1767225600000-45s',
    'eu-west-1',
    'web app',
    new Date('2026-01-01T00:00:00Z'),
  )

  it('reads back what groupRunRequestEvent writes', () => {
    expect(requests.parse(sent)).toMatchObject({
      kind: 'group-run-request',
      envelope: { id: '1767225600000-45s', region: 'eu-west-1', source: 'spotswap' },
      detail: { groupName: 'web app' },
    })
  })

  it.each([
    ['no group name', {}],
    ['an empty one', { groupName: ' ' }],
    ['a number', { groupName: 7 }],
    ['one longer than Auto Scaling allows', { groupName: 'g'.repeat(256) }],
  ])('is malformed with %s', (_, detail) => {
    expect(requests.parse({ ...sent, detail }).kind).toBe('malformed')
  })
})

describe('unwrapInvocation', () => {
  it('passes a direct EventBridge invocation through as one item without a message id', () => {
    const event = build.spotInterruptionWarning()
    expect(unwrapInvocation(event)).toEqual([{ messageId: undefined, payload: { ok: true, value: event } }])
  })

  it('reads the AWS SQS sample: the body is the EventBridge event as JSON text', () => {
    const [item, ...rest] = parseInvocation(registry, build.samples.sqs)
    expect(rest).toEqual([])
    expect(item?.messageId).toBe('059f36b4-87a3-44ab-83d2-661975830a7d')
    expect(item?.event).toMatchObject({
      kind: 'spot-interruption',
      detail: { instanceId: 'i-1234567890abcdef0' },
    })
  })

  it('yields one item per SQS record, in order', () => {
    const items = parseInvocation(
      registry,
      build.viaSqs(
        build.spotInterruptionWarning({ instanceId: 'i-0000000000000000a' }),
        build.rebalanceRecommendation(),
      ),
    )
    expect(items.map((item) => item.event.kind)).toEqual(['spot-interruption', 'rebalance-recommendation'])
  })

  it('marks a record whose body is not JSON as malformed and still reads the others', () => {
    const items = parseInvocation(registry, build.viaSqs('{not json', build.rebalanceRecommendation()))
    expect(items[0]?.event).toMatchObject({
      kind: 'malformed',
      problem: expect.stringContaining('SQS body is not JSON'),
    })
    expect(items[1]?.event.kind).toBe('rebalance-recommendation')
  })

  it('marks a record without a body as malformed', () => {
    const sqs = build.viaSqs(build.rebalanceRecommendation()) as { Records: Record<string, unknown>[] }
    delete sqs.Records[0]?.body
    expect(parseInvocation(registry, sqs)[0]?.event).toMatchObject({
      kind: 'malformed',
      problem: 'SQS record has no body',
    })
  })

  it('treats Records from another source (SNS) as one unreadable event rather than guessing', () => {
    const sns = { Records: [{ EventSource: 'aws:sns', Sns: { Message: '{}' } }] }
    expect(parseInvocation(registry, sns).map((item) => item.event.kind)).toEqual(['malformed'])
  })

  it('treats an empty Records array as one unreadable event', () => {
    expect(parseInvocation(registry, { Records: [] }).map((item) => item.event.kind)).toEqual(['malformed'])
  })
})
