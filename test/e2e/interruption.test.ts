/**
 * The interruption handler against moto_server, through the real AWS adapter and SDK, imported as
 * deployed. A converted group is seeded the way the replacer leaves it (spot twins launched with the
 * launched-for-asg tags, attached, on-demand originals retired); the last step hands the backfilled
 * group to the real replacer. us-west-2 keeps this suite's resources apart from other e2e suites.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import {
  AttachInstancesCommand,
  TerminateInstanceInAutoScalingGroupCommand,
} from '@aws-sdk/client-auto-scaling'
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs'
import { expect, it, vi } from 'vitest'
import type { InterruptionSummary } from '../../lambdas/interruption/create-handler.ts'
import * as events from '../events/builders.ts'
import { autoScaling } from './support/clients.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { warnAsEc2Would } from './support/spot-request-status.ts'
import { allInstances, createGroup, createSpotInstances, groupState } from './support/world.ts'

const REGION = 'us-west-2'

const withEnvRestored = () => {
  const saved = { ...process.env }
  return () => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key]
    Object.assign(process.env, saved)
  }
}

/** The handler module as deployed, fresh per test so its SDK clients pick up this test's moto account. */
const loadInterruptionHandler = async (env: Record<string, string> = {}) => {
  vi.resetModules()
  Object.assign(process.env, { REGIONS: REGION, ...env })
  const { handler } = await import('../../lambdas/interruption/handler.ts')
  return handler as (event: unknown, context: unknown) => Promise<InterruptionSummary>
}

/**
 * A group the replacer has converted: `size` spot instances launched for it and attached, the on-demand
 * instances they replaced terminated with a decrement, exactly as a swap does.
 */
const seedConvertedGroup = async (options: {
  name: string
  size: number
  tags?: Record<string, string>
  terminationHook?: boolean
}) => {
  const tags = options.tags ?? { 'spot-enabled': 'true' }
  const seeded = await createGroup({
    name: options.name,
    desired: options.size,
    min: options.size,
    max: options.size + 1,
    tags,
    terminationHook: options.terminationHook ?? false,
    region: REGION,
  })
  const launchTemplateId = seeded.launchTemplate?.id
  const subnetId = seeded.network.subnets[0]?.id
  if (launchTemplateId === undefined || subnetId === undefined)
    throw new Error('seed: no launch template or subnet')
  const originals = (await groupState(options.name, REGION)).members.map((member) => member.id)
  const client = autoScaling(REGION)
  for (const original of originals) {
    const [spot] = await createSpotInstances({
      launchTemplateId,
      subnetId,
      region: REGION,
      tags: {
        ...tags,
        'launched-by-autospotting': 'true',
        'launched-for-asg': options.name,
        'launched-for-replacing-instance': original,
      },
    })
    await client.send(
      new AttachInstancesCommand({ AutoScalingGroupName: options.name, InstanceIds: [spot as string] }),
    )
    await client.send(
      new TerminateInstanceInAutoScalingGroupCommand({
        InstanceId: original,
        ShouldDecrementDesiredCapacity: true,
      }),
    )
  }
  const state = await groupState(options.name, REGION)
  if (!state.members.every((member) => member.lifecycle === 'spot') || state.desired !== options.size) {
    throw new Error(`seed: group ${options.name} is not converted: ${JSON.stringify(state)}`)
  }
  return state
}

const instance = async (id: string) => (await allInstances(REGION)).find((candidate) => candidate.id === id)

describeMoto('interruption handler against moto', (moto) => {
  freshAccountPerTest(moto, { region: REGION })

  it(
    'keeps desired capacity through an interruption, backfills on-demand at once, and the replacer converts the backfill again',
    async () => {
      const restore = withEnvRestored()
      try {
        const converted = await seedConvertedGroup({ name: 'web', size: 2 })
        const [doomed, survivor] = converted.members.map((member) => member.id) as [string, string]
        const handler = await loadInterruptionHandler()

        const summary = await handler(
          events.spotInterruptionWarning({ instanceId: doomed, region: REGION }),
          {},
        )

        expect(summary.results).toEqual([
          expect.objectContaining({ outcome: 'acted', group: 'web', reason: 'interrupted-member' }),
        ])
        const after = await groupState('web', REGION)
        expect(after.desired).toBe(2)
        expect(after.members.map((m) => m.id)).not.toContain(doomed)
        expect(after.members.map((m) => m.id)).toContain(survivor)
        const backfill = after.members.filter((m) => m.id !== survivor)
        expect(backfill).toEqual([expect.objectContaining({ lifecycle: 'on-demand' })])
        // Terminated through the group (EC2 would reclaim it anyway), never left marked as launched for it.
        expect((await instance(doomed))?.tags['launched-for-asg']).toBeUndefined()

        // The next replacer runs replace the on-demand backfill with spot again.
        vi.resetModules()
        const { createHandler } = await import('../../lambdas/replacer/create-handler.ts')
        const { defaultDeps } = await import('../../lambdas/replacer/default-deps.ts')
        let now = new Date()
        const replace = createHandler({ ...defaultDeps(), now: () => now })
        const scheduled = events.scheduledEvent({ region: REGION, time: now.toISOString() })
        for (let run = 0; run < 6; run++) {
          const state = await groupState('web', REGION)
          if (state.members.length === 2 && state.members.every((m) => m.lifecycle === 'spot')) break
          await replace(scheduled, {})
          now = new Date(now.getTime() + 6 * 60_000)
        }
        const reconverted = await groupState('web', REGION)
        expect(reconverted.desired).toBe(2)
        expect(reconverted.members).toHaveLength(2)
        expect(
          reconverted.members.every((m) => m.lifecycle === 'spot' && m.lifecycleState === 'InService'),
        ).toBe(true)
        expect(reconverted.members.map((m) => m.id)).not.toContain(doomed)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'with the run-request queue, replaces the member ahead: it stays in service, the replacer launches and swaps its replacement in',
    async () => {
      const restore = withEnvRestored()
      try {
        const converted = await seedConvertedGroup({ name: 'web', size: 2 })
        const [doomed, survivor] = converted.members.map((member) => member.id) as [string, string]
        const doomedType = converted.members[0]?.type as string
        const sqs = new SQSClient({ region: REGION, maxAttempts: 1 })
        const { QueueUrl: queueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'run-requests' }))
        const handler = await loadInterruptionHandler({ RUN_REQUEST_QUEUE_URL: queueUrl as string })

        // Given just now: the replacer only swaps within 100 s of the warning.
        const warning = events.spotInterruptionWarning({
          instanceId: doomed,
          region: REGION,
          time: new Date().toISOString(),
        })
        // EC2 marks the member's Spot request as it sends the warning; moto never does.
        warnAsEc2Would(doomed)
        const summary = await handler(warning, {})

        expect(summary.results[0]?.actions.map((a) => a.kind)).toEqual([
          'untag-instance',
          'mark-interrupted',
          'request-runs',
        ])
        const marked = await groupState('web', REGION)
        expect(marked.desired).toBe(2)
        expect(marked.members.map((m) => m.id).sort()).toEqual([doomed, survivor].sort())
        expect((await instance(doomed))?.tags['spotswap:interruption-warned']).toBeDefined()
        const attributes = await sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: queueUrl,
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesDelayed'],
          }),
        )
        const { ApproximateNumberOfMessages: ready, ApproximateNumberOfMessagesDelayed: delayed } =
          attributes.Attributes ?? {}
        expect(Number(ready) + Number(delayed)).toBe(3)
        const received = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10 }),
        )
        const [immediate] = received.Messages ?? []
        expect(received.Messages).toHaveLength(1)

        // The immediate request, then the ones 45 s and 90 s later, as the replacer receives them (no fan-out here).
        vi.resetModules()
        const { createHandler } = await import('../../lambdas/replacer/create-handler.ts')
        const { defaultDeps } = await import('../../lambdas/replacer/default-deps.ts')
        const replace = createHandler(defaultDeps())
        const asDelivered = { Records: [{ eventSource: 'aws:sqs', messageId: 'm-0', body: immediate?.Body }] }
        await replace(asDelivered, {})
        expect((await groupState('web', REGION)).members.map((m) => m.id)).toContain(doomed)
        await replace(asDelivered, {})
        // Attached: the doomed member serves until a later run sees its replacement serve (moto: at once).
        expect((await groupState('web', REGION)).members.map((m) => m.id)).toContain(doomed)
        await replace(asDelivered, {})

        const after = await groupState('web', REGION)
        expect(after.desired).toBe(2)
        expect(after.members.map((m) => m.id)).not.toContain(doomed)
        expect(after.members.map((m) => m.id)).toContain(survivor)
        expect(after.members.every((m) => m.lifecycle === 'spot' && m.lifecycleState === 'InService')).toBe(
          true,
        )
        // All instances land in the first subnet in moto, so "another pool" means another type.
        expect(after.members.find((m) => m.id !== survivor)?.type).not.toBe(doomedType)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'on a rebalance recommendation, flags the member and the replacer moves it to another pool before any interruption',
    async () => {
      const restore = withEnvRestored()
      try {
        const converted = await seedConvertedGroup({ name: 'web', size: 1 })
        const atRisk = converted.members[0]?.id as string
        const atRiskType = converted.members[0]?.type as string
        const handler = await loadInterruptionHandler()
        await handler(events.rebalanceRecommendation({ instanceId: atRisk, region: REGION }), {})
        expect((await instance(atRisk))?.tags['spotswap:rebalance-at-risk']).toBeDefined()
        expect((await groupState('web', REGION)).members.map((m) => m.id)).toEqual([atRisk])

        vi.resetModules()
        const { createHandler } = await import('../../lambdas/replacer/create-handler.ts')
        const { defaultDeps } = await import('../../lambdas/replacer/default-deps.ts')
        let now = new Date()
        const replace = createHandler({ ...defaultDeps(), now: () => now })
        const scheduled = events.scheduledEvent({ region: REGION, time: now.toISOString() })
        for (let run = 0; run < 3; run++) {
          await replace(scheduled, {})
          now = new Date(now.getTime() + 6 * 60_000)
        }
        const after = await groupState('web', REGION)
        expect(after.desired).toBe(1)
        expect(after.members).toEqual([
          expect.objectContaining({ lifecycle: 'spot', lifecycleState: 'InService' }),
        ])
        expect(after.members[0]?.id).not.toBe(atRisk)
        // All instances land in the first subnet in moto, so "another pool" here means another type.
        expect(after.members[0]?.type).not.toBe(atRiskType)
        expect(await instance(atRisk)).toBeUndefined()
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'is harmless when the same event is delivered twice',
    async () => {
      const restore = withEnvRestored()
      try {
        const converted = await seedConvertedGroup({ name: 'web', size: 2 })
        const doomed = converted.members[0]?.id as string
        const handler = await loadInterruptionHandler()
        const event = events.spotInterruptionWarning({ instanceId: doomed, region: REGION })

        await handler(event, {})
        const groupAfterFirst = await groupState('web', REGION)
        const instancesAfterFirst = await allInstances(REGION)
        const second = await handler(event, {})

        expect(second.results).toEqual([expect.objectContaining({ outcome: 'skipped', actions: [] })])
        expect(await groupState('web', REGION)).toEqual(groupAfterFirst)
        expect(await allInstances(REGION)).toEqual(instancesAfterFirst)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'terminates through the group (TerminateInstanceInAutoScalingGroup) when the group has a termination hook',
    async () => {
      const restore = withEnvRestored()
      try {
        const converted = await seedConvertedGroup({ name: 'web', size: 2, terminationHook: true })
        const doomed = converted.members[0]?.id as string
        const handler = await loadInterruptionHandler()

        const summary = await handler(
          events.spotInterruptionWarning({ instanceId: doomed, region: REGION }),
          {},
        )

        expect(summary.results[0]?.actions.map((a) => a.kind)).toEqual([
          'untag-instance',
          'terminate-in-group',
        ])
        const after = await groupState('web', REGION)
        expect(after.desired).toBe(2)
        expect(after.members.map((m) => m.id)).not.toContain(doomed)
        expect(after.members).toHaveLength(2)
        // Unlike a detach, which leaves the instance running outside the group, the group terminated it
        // (moto runs no hook, so termination is immediate).
        expect(await instance(doomed)).toBeUndefined()
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'with REBALANCE_ACTION=detach, the at-risk member leaves through the group (no decrement): it backfills, nothing runs outside',
    async () => {
      const restore = withEnvRestored()
      try {
        const converted = await seedConvertedGroup({
          name: 'web',
          size: 2,
          tags: { 'spot-enabled': 'true', autospotting_rebalance_action: 'detach' },
        })
        const atRisk = converted.members[0]?.id as string
        const handler = await loadInterruptionHandler()

        const summary = await handler(
          events.rebalanceRecommendation({ instanceId: atRisk, region: REGION }),
          {},
        )

        // TerminateInstanceInAutoScalingGroup, never DetachInstances + TerminateInstances: the group's
        // termination hooks and load-balancer draining run.
        expect(summary.results[0]?.actions).toEqual([
          expect.objectContaining({ kind: 'untag-instance' }),
          expect.objectContaining({ kind: 'terminate-in-group', decrement: false }),
        ])
        const after = await groupState('web', REGION)
        expect(after.desired).toBe(2)
        expect(after.members.map((m) => m.id)).not.toContain(atRisk)
        expect(after.members).toHaveLength(2)
        expect(await instance(atRisk)).toBeUndefined()
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'leaves an instance of an untagged group untouched',
    async () => {
      const restore = withEnvRestored()
      try {
        const legacy = await seedConvertedGroup({ name: 'legacy', size: 1, tags: { team: 'data' } })
        const foreign = legacy.members[0]?.id as string
        const instanceBefore = await instance(foreign)
        const handler = await loadInterruptionHandler()

        for (const event of [
          events.spotInterruptionWarning({ instanceId: foreign, region: REGION }),
          events.rebalanceRecommendation({ instanceId: foreign, region: REGION }),
        ]) {
          const summary = await handler(event, {})
          expect(summary.results).toEqual([
            expect.objectContaining({ outcome: 'skipped', reason: 'group-not-managed', actions: [] }),
          ])
        }
        expect(await groupState('legacy', REGION)).toEqual(legacy)
        expect(await instance(foreign)).toEqual(instanceBefore)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )

  it(
    'runs under tsx as it is, with only the endpoint, credentials, AWS_REGION and REGIONS set',
    async () => {
      const converted = await seedConvertedGroup({ name: 'web', size: 1 })
      const doomed = converted.members[0]?.id as string
      const script = [
        "const { handler } = await import('./lambdas/interruption/handler.ts')",
        'const summary = await handler(JSON.parse(process.argv.at(-1)), {})',
        "console.log('RESULT ' + JSON.stringify(summary))",
      ].join('\n')
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '',
        AWS_ENDPOINT_URL: process.env.AWS_ENDPOINT_URL ?? '',
        AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? '',
        AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? '',
        AWS_REGION: REGION,
        REGIONS: REGION,
      }
      if (process.env.AWS_SESSION_TOKEN !== undefined) env.AWS_SESSION_TOKEN = process.env.AWS_SESSION_TOKEN
      const event = JSON.stringify(events.spotInterruptionWarning({ instanceId: doomed, region: REGION }))
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script, event],
        { env, cwd: process.cwd(), timeout: E2E_TIMEOUT_MS },
      )
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('RESULT '))
      const summary = JSON.parse(line?.slice('RESULT '.length) ?? 'null') as InterruptionSummary
      expect(summary.results).toEqual([expect.objectContaining({ outcome: 'acted', group: 'web' })])
      const after = await groupState('web', REGION)
      expect(after.desired).toBe(1)
      expect(after.members.map((m) => m.id)).not.toContain(doomed)
    },
    E2E_TIMEOUT_MS,
  )
})
