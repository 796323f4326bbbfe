import { CloudFormationClient, DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation'
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda'
import { mockClient } from 'aws-sdk-client-mock'
import { beforeEach, describe, expect, it } from 'vitest'
import { lambdaDelivery } from '../../tools/cli/revert-deliver.ts'

const cloudFormation = mockClient(CloudFormationClient)
const lambda = mockClient(LambdaClient)

beforeEach(() => {
  cloudFormation.reset()
  lambda.reset()
})

const resource = (LogicalResourceId: string, ResourceType: string, PhysicalResourceId: string) => ({
  LogicalResourceId,
  ResourceType,
  PhysicalResourceId,
  ResourceStatus: 'CREATE_COMPLETE' as const,
  Timestamp: new Date(0),
})

describe('lambdaDelivery', () => {
  it('finds the replacer function of the SpotSwap stack, not its role or the interruption handler', async () => {
    cloudFormation.on(DescribeStackResourcesCommand, { StackName: 'SpotSwap' }).resolves({
      StackResources: [
        resource('SpotSwapReplacerRoleA1B2', 'AWS::IAM::Role', 'SpotSwap-ReplacerRole-x'),
        resource('SpotSwapInterruptionHandler2905AFA2', 'AWS::Lambda::Function', 'SpotSwap-Interruption-y'),
        resource('SpotSwapReplacerB66F608F', 'AWS::Lambda::Function', 'SpotSwap-SpotSwapReplacer-z'),
      ],
    })
    expect(await lambdaDelivery.replacerFunction('eu-west-1')).toBe('SpotSwap-SpotSwapReplacer-z')
  })

  it('names the stack and region when the stack holds no replacer', async () => {
    cloudFormation.on(DescribeStackResourcesCommand).resolves({ StackResources: [] })
    await expect(lambdaDelivery.replacerFunction('eu-west-1')).rejects.toThrow(
      'no replacer function in stack SpotSwap in eu-west-1',
    )
  })

  it('queues the payload as an asynchronous invoke', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 202 })
    await lambdaDelivery.invoke('eu-west-1', 'fn', '{"a":1}')
    const input = lambda.commandCalls(InvokeCommand)[0]?.args[0].input
    expect(input).toMatchObject({ FunctionName: 'fn', InvocationType: 'Event' })
    expect(new TextDecoder().decode(input?.Payload as Uint8Array)).toBe('{"a":1}')
  })

  it('throws when Lambda does not accept the event', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 200 })
    await expect(lambdaDelivery.invoke('eu-west-1', 'fn', '{}')).rejects.toThrow('Lambda answered 200 for fn')
  })
})
