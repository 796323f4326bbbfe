import { DescribeLaunchConfigurationsCommand } from '@aws-sdk/client-auto-scaling'
import { CreateLaunchTemplateCommand, DescribeInstanceAttributeCommand } from '@aws-sdk/client-ec2'
import { beforeEach, describe, expect, it } from 'vitest'
import type { CloudPort, SpotLaunchRequest } from '../../lambdas/core/port.ts'
import {
  autoScalingMock,
  cloudFormationMock,
  ec2Mock,
  pricingMock,
  resetMocks,
  testAdapter,
} from './support.ts'

const MOCKS = [
  ['ec2', ec2Mock],
  ['autoscaling', autoScalingMock],
  ['cloudformation', cloudFormationMock],
  ['pricing', pricingMock],
] as const

/** `service:Operation` of every command the mocks received, from the command classes themselves. */
const commandsSent = (): string[] =>
  MOCKS.flatMap(([service, mock]) =>
    mock
      .calls()
      .map((call) => `${service}:${(call.args[0] as object).constructor.name.replace(/Command$/, '')}`),
  ).sort()

const launch: SpotLaunchRequest = {
  groupName: 'web',
  launchTemplate: undefined,
  launchConfigurationName: 'legacy-lc',
  overrides: [{ instanceType: 'm5.large', subnetId: 'subnet-1', zone: 'eu-west-1a', priority: 0 }],
  allocationStrategy: 'price-capacity-optimized',
  tags: { 'launched-for-asg': 'web' },
  clientToken: 'token',
}

const EVERY_OPERATION: [string, (cloud: CloudPort) => Promise<unknown>][] = [
  ['describeGroups', (c) => c.describeGroups({ tagKey: 'spot-enabled', tagValues: ['true'] })],
  ['describeInstances', (c) => c.describeInstances(['i-1'])],
  ['describeLaunchedSpotInstances', (c) => c.describeLaunchedSpotInstances()],
  ['describeInstanceTypes', (c) => c.describeInstanceTypes()],
  ['describeSpotPrices', (c) => c.describeSpotPrices('Linux/UNIX', new Date())],
  ['onDemandPrices', (c) => c.onDemandPrices('Linux/UNIX')],
  ['terminationProtected', (c) => c.terminationProtected(['i-1', 'i-2'])],
  ['stackStatuses', (c) => c.stackStatuses(['stack'])],
  ['lifecycleHooks', (c) => c.lifecycleHooks('web')],
  ['groupOfInstances', (c) => c.groupOfInstances(['i-1'])],
  ['scalingActivities', (c) => c.scalingActivities('web', new Date(0))],
  ['latestScalingActivities', (c) => c.latestScalingActivities('web', 10)],
  ['launchSpot (launch configuration)', (c) => c.launchSpot(launch)],
  [
    'launchSpot (launch template)',
    (c) => c.launchSpot({ ...launch, launchTemplate: { id: 'lt-1', name: undefined, version: undefined } }),
  ],
  ['attachInstances', (c) => c.attachInstances('web', ['i-1'])],
  ['detachInstances', (c) => c.detachInstances('web', ['i-1'], true)],
  ['terminateInGroup', (c) => c.terminateInGroup('i-1', false)],
  ['terminateInstances', (c) => c.terminateInstances(['i-1'])],
  ['setMaxSize', (c) => c.setMaxSize('web', 3)],
  ['tagGroup', (c) => c.tagGroup('web', { a: 'b' })],
  ['untagGroup', (c) => c.untagGroup('web', ['a'])],
  ['tagInstances', (c) => c.tagInstances(['i-1'], { a: 'b' })],
  ['untagInstances', (c) => c.untagInstances(['i-1'], ['a'])],
]

beforeEach(() => {
  resetMocks()
  autoScalingMock.onAnyCommand().resolves({})
  cloudFormationMock.onAnyCommand().resolves({})
  pricingMock.onAnyCommand().resolves({})
  ec2Mock.onAnyCommand().resolves({})
  autoScalingMock.on(DescribeLaunchConfigurationsCommand).resolves({
    LaunchConfigurations: [
      {
        LaunchConfigurationName: 'legacy-lc',
        ImageId: 'ami-1',
        InstanceType: 'm5.large',
        CreatedTime: new Date(),
      },
    ],
  })
  ec2Mock
    .on(CreateLaunchTemplateCommand)
    .resolves({ LaunchTemplate: { LaunchTemplateId: 'lt-temporary' } })
    .on(DescribeInstanceAttributeCommand)
    .resolves({ DisableApiTermination: { Value: false } })
})

describe('API call counting', () => {
  it.each(EVERY_OPERATION)('%s reports exactly the SDK operations it sends', async (_name, operate) => {
    const { cloud, apiCalls } = testAdapter()
    await operate(cloud)
    expect(apiCalls.length).toBeGreaterThan(0)
    expect([...apiCalls].sort()).toEqual(commandsSent())
  })
})
