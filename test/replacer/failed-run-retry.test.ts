/**
 * A region run that fails before it acts (a region-level read failing after the SDK's retries) asks once
 * for another run of its lane a minute later (replacer/retry-run.ts), through the run-request queue and
 * the lane's message group; a run that is itself such a retry asks for none, so the requests are bounded.
 */
import { describe, expect, it } from 'vitest'
import { FAILED_RUN_RETRY_SECONDS, REGION_LANES } from '../../lambdas/core/constants.ts'
import { type RetryRequestDetail, retryRequestEvent } from '../../lambdas/core/events/retry-request.ts'
import { laneMessageGroupId, laneOf } from '../../lambdas/core/region/lanes.ts'
import { serviceUnavailableError } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, harness, laneRecord, START } from './support.ts'

const REGION = 'us-east-1'
/** The lane of the fleet's group, `web`. */
const LANE = laneOf('web', REGION_LANES)
const FANOUT = 'https://sqs.us-east-1.amazonaws.com/123456789012/fanout.fifo'

/** A lane's message, as the fan-out queue delivers it, marked as a retry or not. */
const laneMessage = (lane: number, retry: boolean) => {
  const record = laneRecord(lane)
  const [first] = record.Records
  const body = JSON.parse(first?.body ?? '{}')
  if (retry) body.detail.retry = true
  return { Records: [{ ...first, body: JSON.stringify(body) }] }
}

const setup = () => {
  const cloud = cloudWithFleet(2)
  const retries: { region: string; scope: RetryRequestDetail; delaySeconds: number }[] = []
  const h = harness({ [REGION]: cloud }, { FANOUT_QUEUE_URL: FANOUT }, START, {
    requestRetry: async (region, scope, delaySeconds) => {
      retries.push({ region, scope, delaySeconds })
    },
  })
  return { cloud, h, retries }
}

describe('a region run that fails before it acts', () => {
  it.each([
    ['the group listing', 'describeGroups'],
    ['the launched spot instances', 'describeLaunchedSpotInstances'],
    ['the instance types', 'describeInstanceTypes'],
  ] as const)('asks once for another run of its lane when %s cannot be read', async (_what, method) => {
    const { cloud, h, retries } = setup()
    cloud.failNext(method, serviceUnavailableError())
    const summary = await h.run(laneMessage(LANE, false))
    expect(summary.ok).toBe(false)
    expect(retries).toEqual([
      { region: REGION, scope: { lane: LANE, groups: undefined }, delaySeconds: FAILED_RUN_RETRY_SECONDS },
    ])
  })

  it('asks for none when it is itself a retry', async () => {
    const { cloud, h, retries } = setup()
    cloud.failNext('describeGroups', serviceUnavailableError())
    const summary = await h.run(laneMessage(LANE, true))
    expect(summary.ok).toBe(false)
    expect(retries).toEqual([])
  })

  it('asks for none when it succeeds', async () => {
    const { h, retries } = setup()
    const summary = await h.run(laneMessage(LANE, false))
    expect(summary.ok).toBe(true)
    expect(retries).toEqual([])
  })
})

describe('a retry request', () => {
  it("is passed on to its lane's message group as a run marked as a retry", async () => {
    const { h, retries } = setup()
    const body = retryRequestEvent('r-1', REGION, { lane: 5, groups: ['web'] }, START)
    const summary = await h.run({
      Records: [{ eventSource: 'aws:sqs', messageId: 'q-1', body: JSON.stringify(body) }],
    })
    expect(summary.enqueued).toEqual([`${REGION}/lane-5`])
    const [message] = h.recorded.enqueued
    expect(message?.groupId).toBe(laneMessageGroupId(REGION, 5))
    expect(JSON.parse(message?.body ?? '{}').detail).toEqual({
      region: REGION,
      groups: ['web'],
      lane: 5,
      retry: true,
    })
    expect(retries).toEqual([])
  })

  it('is refused when its lane is not one', async () => {
    const { h } = setup()
    const body = retryRequestEvent('r-1', REGION, { lane: 99, groups: undefined }, START)
    const summary = await h.run({
      Records: [{ eventSource: 'aws:sqs', messageId: 'q-1', body: JSON.stringify(body) }],
    })
    expect(summary.ignored?.[0]?.reason).toMatch(/detail.lane/)
    expect(h.recorded.enqueued).toEqual([])
  })
})
