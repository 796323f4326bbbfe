/**
 * The simulator runs the real adapter over its own clients and never loads the AWS SDK (nor the
 * Lambdas' Powertools logging, which its runs replace with their own log), statically
 * (test/architecture/sdk-loading.test.ts) or on first use: the adapter imports the real clients only
 * when it is given none, and a simulation that did so would send to AWS.
 */
import { describe, expect, it, vi } from 'vitest'
import { simulate } from '../../tools/sim/simulate.ts'
import { group, parse, rawScenario } from './support.ts'

// Hoisted with the mocks, which vitest moves above the imports.
const { loaded, refuse } = vi.hoisted(() => {
  const loaded: string[] = []
  const refuse = (name: string) => () => {
    loaded.push(name)
    throw new Error(`the simulator loaded ${name}`)
  }
  return { loaded, refuse }
})

vi.mock('@aws-sdk/client-auto-scaling', refuse('@aws-sdk/client-auto-scaling'))
vi.mock('@aws-sdk/client-cloudformation', refuse('@aws-sdk/client-cloudformation'))
vi.mock('@aws-sdk/client-ec2', refuse('@aws-sdk/client-ec2'))
vi.mock('@aws-sdk/client-elastic-load-balancing', refuse('@aws-sdk/client-elastic-load-balancing'))
vi.mock('@aws-sdk/client-elastic-load-balancing-v2', refuse('@aws-sdk/client-elastic-load-balancing-v2'))
vi.mock('@aws-sdk/client-pricing', refuse('@aws-sdk/client-pricing'))
vi.mock('@aws-sdk/client-sqs', refuse('@aws-sdk/client-sqs'))
// The handlers' Powertools logger and metrics are theirs to pass in: the adapter loads neither.
vi.mock('@aws-lambda-powertools/logger', refuse('@aws-lambda-powertools/logger'))
vi.mock('@aws-lambda-powertools/metrics', refuse('@aws-lambda-powertools/metrics'))

describe('the simulator and the AWS SDK', () => {
  it('runs both Lambdas through the real adapter without loading any SDK client or Powertools', async () => {
    const report = await simulate(
      parse(
        rawScenario([group('web', { min: 2, max: 4, desired: 4 })], {
          durationHours: 2,
          interruptions: [{ at: '2022-05-31T19:00:00Z', group: 'web', count: 1 }],
        }),
      ),
    )
    expect(report.totals.apiCalls['ec2:CreateFleet']).toBeGreaterThan(0)
    expect(report.totals.apiCalls['autoscaling:DescribeAutoScalingInstances']).toBeGreaterThan(0)
    expect(loaded).toEqual([])
  })
})
