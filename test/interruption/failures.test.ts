import { describe, expect, it } from 'vitest'
import { TAG_INTERRUPTION_WARNED } from '../../lambdas/core/constants.ts'
import { createHandler } from '../../lambdas/interruption/create-handler.ts'
import { TransientCloudError } from '../../lambdas/interruption/execute.ts'
import * as events from '../events/builders.ts'
import { awsError, FakeCloud, serviceUnavailableError, throttlingError } from '../fakes/fake-cloud.ts'
import { NOW, seedConvertedGroup, testDeps } from './support.ts'

const setup = () => {
  const cloud = new FakeCloud('us-east-1')
  const { ids } = seedConvertedGroup(cloud)
  const deps = testDeps([cloud])
  return { cloud, doomed: ids[0] as string, deps, handler: createHandler(deps) }
}
const interruptionOf = (instanceId: string) =>
  events.spotInterruptionWarning({ instanceId, region: 'us-east-1' })

describe('interruption handler: bad input never throws', () => {
  it.each([
    ['null', null],
    ['an empty object', {}],
    ['a string', 'EC2 Spot Instance Interruption Warning'],
    ['an event without detail', events.without(events.spotInterruptionWarning(), 'detail')],
    ['an event without region', events.without(events.spotInterruptionWarning(), 'region')],
    [
      'a missing instance-id',
      events.withDetail(events.spotInterruptionWarning(), { 'instance-id': undefined }),
    ],
    [
      'a malformed instance-id',
      events.withDetail(events.rebalanceRecommendation(), { 'instance-id': 'i-NOPE' }),
    ],
    ['an unknown instance-action', events.spotInterruptionWarning({ action: 'reboot' })],
    ['an SQS body that is not JSON', events.viaSqs('{"version": "0",')],
    ['an SQS record without body', { Records: [{ eventSource: 'aws:sqs', messageId: 'm-1' }] }],
  ])('%s: one structured warning, no AWS call, no action', async (_name, input) => {
    const { cloud, deps, handler } = setup()
    const summary = await handler(input, {})
    expect(cloud.calls).toEqual([])
    expect(deps.cloudsAsked).toEqual([])
    const { telemetry } = deps
    expect(summary.results).toEqual([
      expect.objectContaining({ outcome: 'invalid', reason: 'malformed-event', actions: [] }),
    ])
    const warnings = telemetry.logs().filter((line) => line.level === 'WARN')
    expect(warnings).toEqual([
      expect.objectContaining({ message: 'interruption event rejected', reason: 'malformed-event' }),
    ])
    expect(warnings[0]?.detail).toEqual(expect.any(String))
  })

  it('an unknown instance id: looked up, found nowhere, nothing done', async () => {
    const { cloud, handler } = setup()
    const summary = await handler(interruptionOf('i-0fffffffffffffff0'), {})
    expect(cloud.mutations).toEqual([])
    expect(summary.results[0]).toMatchObject({ outcome: 'skipped', reason: 'instance-gone' })
  })

  it('an event that is not an interruption (a schedule tick) is a typed no-op with one log line and no AWS call', async () => {
    const { cloud, deps, handler } = setup()
    const summary = await handler(events.scheduledEvent(), {})
    expect(cloud.calls).toEqual([])
    expect(summary.results).toEqual([
      expect.objectContaining({ kind: 'unrecognized', outcome: 'ignored', reason: 'unrecognized-event' }),
    ])
    expect(deps.telemetry.logs().filter((line) => line.reason === 'unrecognized-event')).toHaveLength(1)
  })

  it('a bad record in an SQS batch does not stop the good one', async () => {
    const { cloud, doomed, handler } = setup()
    const summary = await handler(events.viaSqs('garbage', interruptionOf(doomed)), {})
    expect(summary.results.map((r) => r.outcome)).toEqual(['invalid', 'acted'])
    expect(cloud.mutations.map((m) => m.method)).toEqual(['untagInstances', 'terminateInGroup'])
  })
})

describe('interruption handler: AWS failures', () => {
  it.each([
    ['throttling while reading', 'describeInstances', throttlingError()],
    ['a 5xx while reading groups', 'describeGroups', serviceUnavailableError()],
    ['throttling while leaving the group', 'terminateInGroup', throttlingError()],
    ['a 5xx while untagging', 'untagInstances', serviceUnavailableError()],
  ] as const)(
    '%s on both attempts throws so Lambda retries, and the retry completes the job',
    async (_name, method, error) => {
      const { cloud, doomed, handler } = setup()
      cloud.failNext(method, error)
      cloud.failNext(method, error)

      await expect(handler(interruptionOf(doomed), {})).rejects.toBeInstanceOf(TransientCloudError)
      await expect(handler(interruptionOf(doomed), {})).resolves.toMatchObject({
        results: [{ outcome: 'acted' }],
      })

      expect(cloud.group('web').members.has(doomed)).toBe(false)
      expect(cloud.group('web').desiredCapacity).toBe(3)
      expect(cloud.group('web').members.size).toBe(3)
    },
  )

  it('keeps the AWS error as the cause of the retryable error', async () => {
    const { cloud, doomed, handler } = setup()
    const throttled = throttlingError()
    cloud.failNext('terminateInGroup', throttlingError())
    cloud.failNext('terminateInGroup', throttled)
    const failure = await handler(interruptionOf(doomed), {}).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(TransientCloudError)
    expect((failure as Error).cause).toBe(throttled)
    expect((failure as Error).message).toContain('terminate-in-group')
  })

  it('finishes the other events of an SQS batch before throwing for the transient one', async () => {
    const cloud = new FakeCloud('us-east-1')
    const { ids } = seedConvertedGroup(cloud, { size: 2 })
    const [first, second] = ids as [string, string]
    // The events run side by side: the first leave fails, then the second's first attempt, then the first's
    // second attempt, so only the first event fails for good.
    for (let i = 0; i < 3; i++) cloud.failNext('terminateInGroup', serviceUnavailableError())
    const handler = createHandler(testDeps([cloud]))
    const batch = events.viaSqs(
      events.spotInterruptionWarning({ instanceId: first, region: 'us-east-1', action: 'stop' }),
      interruptionOf(second),
    )
    await expect(handler(batch, {})).rejects.toBeInstanceOf(TransientCloudError)
    expect(cloud.group('web').members.has(second)).toBe(false)
    expect(cloud.group('web').members.has(first)).toBe(true)
  })

  it('a permanent failure (access denied) is reported, not thrown: a retry would fail the same way', async () => {
    const { cloud, deps, doomed, handler } = setup()
    cloud.failNext(
      'terminateInGroup',
      awsError(
        'AccessDenied',
        403,
        'not authorized to perform autoscaling:TerminateInstanceInAutoScalingGroup',
      ),
    )
    const summary = await handler(interruptionOf(doomed), {})
    expect(summary.results[0]).toMatchObject({
      outcome: 'failed',
      reason: 'terminate-in-group-failed',
      detail: expect.stringContaining('AccessDenied'),
      actions: [expect.objectContaining({ kind: 'untag-instance' })],
    })
    expect(deps.telemetry.logs().filter((line) => line.level === 'ERROR')).toEqual([
      expect.objectContaining({ message: 'interruption event failed', reason: 'terminate-in-group-failed' }),
    ])
  })

  it('a permanent failure while reading is reported, not thrown', async () => {
    const { cloud, doomed, handler } = setup()
    cloud.failNext('groupOfInstances', awsError('AccessDenied', 403))
    const summary = await handler(interruptionOf(doomed), {})
    expect(summary.results[0]).toMatchObject({
      outcome: 'failed',
      reason: 'unexpected-error',
      instanceId: doomed,
    })
    expect(cloud.mutations).toEqual([])
  })

  it('an instance that left between reading and acting counts as already handled', async () => {
    const { cloud, doomed, handler } = setup()
    cloud.failNext(
      'terminateInGroup',
      awsError(
        'ValidationError',
        400,
        `Instance Id not found - No managed instance found for instance ID: ${doomed}`,
      ),
    )
    const summary = await handler(interruptionOf(doomed), {})
    expect(summary.results[0]).toMatchObject({ outcome: 'skipped', reason: 'already-handled' })
  })
})

describe('interruption handler: one failed attempt is tried again at once', () => {
  const retried = (deps: ReturnType<typeof setup>['deps']) =>
    deps.telemetry.logs().filter((line) => line.message === 'interruption event tried again at once')

  it.each([
    ['throttling while reading', 'describeInstances', throttlingError()],
    ['a 5xx while leaving the group', 'terminateInGroup', serviceUnavailableError()],
  ] as const)(
    '%s: the same invocation finishes the job, without waiting for Lambda’s retry',
    async (_name, method, error) => {
      const { cloud, deps, doomed, handler } = setup()
      cloud.failNext(method, error)

      await expect(handler(interruptionOf(doomed), {})).resolves.toMatchObject({
        results: [{ outcome: 'acted', reason: 'interrupted-member' }],
      })
      expect(cloud.group('web').members.has(doomed)).toBe(false)
      expect(cloud.group('web').desiredCapacity).toBe(3)
      expect(retried(deps)).toEqual([expect.objectContaining({ attempt: 1 })])
    },
  )

  /** A member an earlier delivery of the warning already marked: its marker is verified before anything is done. */
  const markedSetup = () => {
    const context = setup()
    const warnedAt = new Date(NOW.getTime() - 5_000).toISOString()
    context.cloud.seedInstanceTags(context.doomed, { [TAG_INTERRUPTION_WARNED]: warnedAt })
    return context
  }

  it('a marker KMS could not verify on the first attempt is verified again, and the member is handled', async () => {
    const { cloud, deps, doomed, handler } = markedSetup()
    // KMS is unreachable for the first attempt's verification only.
    const verify = cloud.verifyMarkers.bind(cloud)
    cloud.kmsUnavailable = true
    cloud.verifyMarkers = async (markers) => {
      const verdicts = await verify(markers)
      cloud.kmsUnavailable = false
      return verdicts
    }

    const summary = await handler(interruptionOf(doomed), {})
    expect(summary.results).toEqual([expect.objectContaining({ outcome: 'acted' })])
    expect(cloud.group('web').members.has(doomed)).toBe(false)
    expect(retried(deps)).toEqual([
      expect.objectContaining({ attempt: 1, why: expect.stringContaining('could not be verified') }),
    ])
  })

  it('a marker that stays unverifiable is tried twice, then held back with nothing done', async () => {
    const { cloud, deps, doomed, handler } = markedSetup()
    cloud.kmsUnavailable = true

    const summary = await handler(interruptionOf(doomed), {})
    expect(summary.results).toEqual([
      expect.objectContaining({ outcome: 'skipped', reason: 'markers-unverifiable' }),
    ])
    expect(cloud.mutations).toEqual([])
    expect(retried(deps)).toHaveLength(1)
  })
})
