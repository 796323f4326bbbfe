/**
 * How `spotswap revert` hands its run request to the deployed replacer: an asynchronous Lambda invoke
 * (InvocationType Event: Lambda queues the event and answers 202 at once, retrying a failed run twice,
 * https://docs.aws.amazon.com/lambda/latest/dg/invocation-async.html). The function is the one named, or
 * the replacer of the home stack, found by its logical id (lib/spotswap.ts `Replacer` under the stack's
 * `SpotSwap` construct). Loaded by a dynamic import, so no other command pays for the Lambda client.
 */
import { CloudFormationClient, DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation'
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda'
import { HOME_STACK } from './preflight.ts'

/** The replacer's logical id starts so; its role's is `SpotSwapReplacerRole…`, but that is no function. */
export const REPLACER_FUNCTION_PREFIX = 'SpotSwapReplacer'

/** Lambda's answer to an accepted asynchronous invoke. */
const ACCEPTED = 202

export class RevertDeliveryError extends Error {
  override readonly name = 'RevertDeliveryError'
}

export interface RevertDelivery {
  /** The replacer's physical name (or the one given), from the stack in `homeRegion`. */
  replacerFunction(homeRegion: string): Promise<string>
  /** Queues `payload` for the function; throws when Lambda does not accept it. */
  invoke(homeRegion: string, functionName: string, payload: string): Promise<void>
}

export const lambdaDelivery: RevertDelivery = {
  replacerFunction: async (homeRegion) => {
    const answer = await new CloudFormationClient({ region: homeRegion }).send(
      new DescribeStackResourcesCommand({ StackName: HOME_STACK }),
    )
    const fn = (answer.StackResources ?? []).find(
      (r) =>
        r.ResourceType === 'AWS::Lambda::Function' &&
        r.LogicalResourceId?.startsWith(REPLACER_FUNCTION_PREFIX),
    )?.PhysicalResourceId
    if (fn === undefined)
      throw new RevertDeliveryError(
        `no replacer function in stack ${HOME_STACK} in ${homeRegion}: name it with --function, or --home-region where spotswap is deployed`,
      )
    return fn
  },
  invoke: async (homeRegion, functionName, payload) => {
    const answer = await new LambdaClient({ region: homeRegion }).send(
      new InvokeCommand({
        FunctionName: functionName,
        InvocationType: 'Event',
        Payload: new TextEncoder().encode(payload),
      }),
    )
    if (answer.StatusCode !== ACCEPTED)
      throw new RevertDeliveryError(
        `Lambda answered ${answer.StatusCode} for ${functionName}, not ${ACCEPTED}`,
      )
  },
}
