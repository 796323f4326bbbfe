/**
 * The deployable layout: one SpotSwap stack in the home region and one small forwarding stack in every
 * other covered region. Used by bin/app.ts and by the tests, so both build exactly the same thing.
 */
import { type App, Stack, type StackProps } from 'aws-cdk-lib'
import type { Construct } from 'constructs'
import type { AppConfig } from './app-config.ts'
import { SpotSwapEventForwarder } from './forwarder.ts'
import { SpotSwap, type SpotSwapProps } from './spotswap.ts'

export const HOME_STACK_NAME = 'SpotSwap'
export const forwarderStackName = (region: string): string => `SpotSwap-forwarder-${region}`

export class SpotSwapStack extends Stack {
  readonly spotSwap: SpotSwap

  constructor(scope: Construct, id: string, props: StackProps & { readonly spotSwap: SpotSwapProps }) {
    super(scope, id, props)
    this.spotSwap = new SpotSwap(this, 'SpotSwap', props.spotSwap)
  }
}

export class SpotSwapForwarderStack extends Stack {
  readonly forwarder: SpotSwapEventForwarder

  constructor(scope: Construct, id: string, props: StackProps & { readonly homeRegion: string }) {
    super(scope, id, props)
    this.forwarder = new SpotSwapEventForwarder(this, 'Forwarder', { homeRegion: props.homeRegion })
  }
}

export interface SpotSwapStacks {
  readonly home: SpotSwapStack
  readonly forwarders: readonly SpotSwapForwarderStack[]
}

export const createSpotSwapStacks = (app: App, config: AppConfig): SpotSwapStacks => {
  const env = (region: string) => ({ account: config.account, region })
  const home = new SpotSwapStack(app, HOME_STACK_NAME, {
    env: env(config.homeRegion),
    description: 'spotswap: replaces on-demand Auto Scaling capacity with compatible spot instances',
    spotSwap: {
      regions: config.regions,
      scheduleMinutes: config.scheduleMinutes,
      configuration: config.configuration,
      ...(config.notificationEmail ? { notificationEmail: config.notificationEmail } : {}),
      ...(config.rehearsalGroupName ? { rehearsalGroupName: config.rehearsalGroupName } : {}),
    },
  })
  const forwarders = config.regions
    .filter((region) => region !== config.homeRegion)
    .map(
      (region) =>
        new SpotSwapForwarderStack(app, forwarderStackName(region), {
          env: env(region),
          description: `spotswap: forwards spot interruption, rebalance and group launch events to ${config.homeRegion}`,
          homeRegion: config.homeRegion,
        }),
    )
  return { home, forwarders }
}
