/**
 * The deployable layout: one SpotSwap stack in the home region and one small forwarding stack in every
 * other covered region. Used by bin/app.ts, by SpotSwapStage (CDK Pipelines) and by the tests, so all
 * of them build exactly the same thing.
 */
import {
  Aws,
  CfnOutput,
  DefaultStackSynthesizer,
  Stack,
  type StackProps,
  Stage,
  type StageProps,
} from 'aws-cdk-lib'
import type { Construct } from 'constructs'
import type { AppConfig } from './app-config.ts'
import { SpotSwapEventForwarder } from './forwarder.ts'
import { SpotSwap } from './spotswap.ts'
import type { SpotSwapProps } from './spotswap-props.ts'

export const HOME_STACK_NAME = 'SpotSwap'
export const forwarderStackName = (region: string): string => `SpotSwap-forwarder-${region}`

export class SpotSwapStack extends Stack {
  readonly spotSwap: SpotSwap

  constructor(scope: Construct, id: string, props: StackProps & { readonly spotSwap: SpotSwapProps }) {
    super(scope, id, props)
    this.spotSwap = new SpotSwap(this, 'SpotSwap', props.spotSwap)
    const dashboardName = this.spotSwap.dashboard.dashboard.dashboardName
    new CfnOutput(this, 'DashboardUrl', {
      description: 'The spotswap savings dashboard',
      value: `https://${Aws.REGION}.console.aws.amazon.com/cloudwatch/home?region=${Aws.REGION}#dashboards:name=${dashboardName}`,
    })
    new CfnOutput(this, 'ReplacerLogGroup', {
      description: 'aws logs tail <this> --follow',
      value: this.spotSwap.replacerLogGroup.logGroupName,
    })
    new CfnOutput(this, 'InterruptionHandlerLogGroup', {
      description: 'aws logs tail <this> --follow',
      value: this.spotSwap.interruptionHandlerLogGroup.logGroupName,
    })
    new CfnOutput(this, 'FailedEventsQueueUrl', {
      description: 'Events and invocations that failed every retry',
      value: this.spotSwap.failedEvents.queueUrl,
    })
    if (this.spotSwap.rehearsal) {
      new CfnOutput(this, 'RehearsalExperimentTemplateId', {
        description: 'aws fis start-experiment --experiment-template-id <this>',
        value: this.spotSwap.rehearsal.template.attrId,
      })
    }
  }
}

export class SpotSwapForwarderStack extends Stack {
  readonly forwarder: SpotSwapEventForwarder

  constructor(scope: Construct, id: string, props: StackProps & { readonly homeRegion: string }) {
    // No bootstrap-version check: the stack has no assets, so its template is also deployable as is with
    // CloudFormation StackSets to accounts and regions that were never bootstrapped.
    super(scope, id, {
      synthesizer: new DefaultStackSynthesizer({ generateBootstrapVersionRule: false }),
      ...props,
    })
    this.forwarder = new SpotSwapEventForwarder(this, 'Forwarder', { homeRegion: props.homeRegion })
  }
}

export interface SpotSwapStacks {
  readonly home: SpotSwapStack
  readonly forwarders: readonly SpotSwapForwarderStack[]
}

/** `scope` is the App for a plain deployment, or a Stage per account in a pipeline. */
export const createSpotSwapStacks = (scope: Construct, config: AppConfig): SpotSwapStacks => {
  const env = (region: string) => ({ account: config.account, region })
  const home = new SpotSwapStack(scope, HOME_STACK_NAME, {
    env: env(config.homeRegion),
    description: 'spotswap: replaces on-demand Auto Scaling capacity with compatible spot instances',
    spotSwap: {
      regions: config.regions,
      scheduleMinutes: config.scheduleMinutes,
      configuration: config.configuration,
      ...(config.notificationEmail ? { notificationEmail: config.notificationEmail } : {}),
      ...(config.alarmTopicArn ? { alarmTopicArn: config.alarmTopicArn } : {}),
      ...(config.rehearsalGroupName ? { rehearsalGroupName: config.rehearsalGroupName } : {}),
      ...(config.passableRoles ? { passableRoles: config.passableRoles } : {}),
      ...(config.killSwitchParameterName ? { killSwitchParameterName: config.killSwitchParameterName } : {}),
    },
  })
  const forwarders = config.regions
    .filter((region) => region !== config.homeRegion)
    .map(
      (region) =>
        new SpotSwapForwarderStack(scope, forwarderStackName(region), {
          env: env(region),
          description: `spotswap: forwards spot interruption, rebalance and group launch events to ${config.homeRegion}`,
          homeRegion: config.homeRegion,
        }),
    )
  return { home, forwarders }
}

/** One account's spotswap (home stack and forwarders) as a CDK Pipelines stage. */
export class SpotSwapStage extends Stage {
  readonly stacks: SpotSwapStacks

  constructor(scope: Construct, id: string, props: StageProps & { readonly config: AppConfig }) {
    super(scope, id, props)
    this.stacks = createSpotSwapStacks(this, {
      ...props.config,
      account: props.env?.account ?? props.config.account,
    })
  }
}
