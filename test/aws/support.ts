/**
 * Shared set-up for the adapter's request-shape tests: SDK clients mocked at the prototype (so the
 * adapter's lazily created clients are covered), an adapter with its own caches, a settable clock,
 * and recorders for API calls and warnings.
 */
import 'aws-sdk-client-mock-vitest/extend'
import { AutoScalingClient, AutoScalingServiceException } from '@aws-sdk/client-auto-scaling'
import { CloudFormationClient } from '@aws-sdk/client-cloudformation'
import { EC2Client } from '@aws-sdk/client-ec2'
import { PricingClient } from '@aws-sdk/client-pricing'
import { mockClient } from 'aws-sdk-client-mock'
import { createAwsCloud } from '../../lambdas/aws/cloud.ts'
import { type AdapterCaches, type ApiCallName, createAdapterCaches } from '../../lambdas/aws/context.ts'
import type { CloudPort } from '../../lambdas/core/port.ts'

export const REGION = 'eu-west-1'

export const ec2Mock = mockClient(EC2Client)
export const autoScalingMock = mockClient(AutoScalingClient)
export const cloudFormationMock = mockClient(CloudFormationClient)
export const pricingMock = mockClient(PricingClient)

export const resetMocks = (): void => {
  for (const mock of [ec2Mock, autoScalingMock, cloudFormationMock, pricingMock]) mock.reset()
}

export interface LoggedLine {
  readonly level: 'info' | 'warn'
  readonly message: string
  readonly attributes: Record<string, unknown> | undefined
}

export interface TestAdapter {
  readonly cloud: CloudPort
  readonly apiCalls: ApiCallName[]
  readonly logged: LoggedLine[]
  /** Epoch milliseconds the adapter's cache sees; tests move it forward. */
  readonly clock: { nowMs: number }
  readonly caches: AdapterCaches
}

export const testAdapter = (region: string = REGION): TestAdapter => {
  const apiCalls: ApiCallName[] = []
  const logged: LoggedLine[] = []
  const clock = { nowMs: Date.parse('2026-03-02T10:00:00Z') }
  const caches = createAdapterCaches()
  const cloud = createAwsCloud(region, {
    onApiCall: (name) => apiCalls.push(name),
    logger: {
      info: (message, attributes) => logged.push({ level: 'info', message, attributes }),
      warn: (message, attributes) => logged.push({ level: 'warn', message, attributes }),
    },
    now: () => clock.nowMs,
    caches,
  })
  return { cloud, apiCalls, logged, clock, caches }
}

/** An error as the SDK raises it for a service error response. */
export const awsError = (code: string, message = code, httpStatusCode = 400): Error =>
  new AutoScalingServiceException({
    name: code,
    $fault: httpStatusCode >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode },
    message,
  })
