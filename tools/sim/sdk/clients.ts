/**
 * The simulated SDK clients of one region for one invocation: the narrow interfaces the adapter takes
 * (lambdas/aws/sdk.ts), answered from the world. CloudFormation is here too: the simulated account has no
 * stacks, so every DescribeStacks gets the service's not-found answer.
 */
import type { AwsClients, CloudFormationApi } from '../../../lambdas/aws/cloud.ts'
import { validationError } from '../errors.ts'
import type { Session } from '../faults.ts'
import type { World } from '../world.ts'
import { autoScalingReads } from './autoscaling-reads.ts'
import { autoScalingWrites } from './autoscaling-writes.ts'
import { savingsPlansReads } from './commitment-plans.ts'
import { commitmentReads } from './commitments.ts'
import { ec2Launches } from './ec2-launches.ts'
import { ec2Reads } from './ec2-reads.ts'
import { ec2Writes } from './ec2-writes.ts'
import { ecs } from './ecs.ts'
import { kms } from './kms.ts'
import { elb, elbv2 } from './load-balancers.ts'
import { Listings } from './paging.ts'
import { pricing } from './pricing.ts'
import { answer, type SimApiContext } from './request.ts'
import { spotRequests } from './spot-requests.ts'

// A missing stack is a ValidationError "Stack with id <name> does not exist"
// (https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribeStacks.html).
const cloudFormation = (ctx: SimApiContext): CloudFormationApi => ({
  describeStacks: (input) =>
    answer(
      ctx,
      'cloudformation:DescribeStacks',
      () => {
        throw validationError(`Stack with id ${input.StackName} does not exist`)
      },
      { notFoundIsAnAnswer: true },
    ),
})

export const simClients = (world: World, region: string, session: Session): AwsClients => {
  const ctx: SimApiContext = { world, region: world.region(region), session, listings: new Listings() }
  return {
    ec2: {
      ...ec2Reads(ctx),
      ...spotRequests(ctx),
      ...ec2Writes(ctx),
      ...ec2Launches(ctx),
      ...commitmentReads(ctx),
    },
    autoScaling: { ...autoScalingReads(ctx), ...autoScalingWrites(ctx) },
    cloudFormation: cloudFormation(ctx),
    pricing: pricing(ctx),
    elbv2: elbv2(ctx),
    elb: elb(ctx),
    kms: kms(ctx),
    ecs: ecs(ctx),
    savingsPlans: savingsPlansReads(ctx),
  }
}
