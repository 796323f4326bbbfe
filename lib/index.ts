/** spotswap's CDK constructs, for embedding in another CDK app. */
export { type AppConfig, readAppConfig } from './app-config.ts'
export {
  CONFIGURATION_VARIABLES,
  type ConfigurationVariable,
  type SpotSwapConfiguration,
  validateConfiguration,
} from './configuration.ts'
export { DEFAULT_REGIONS } from './default-regions.ts'
export { SpotSwapEventForwarder, type SpotSwapEventForwarderProps } from './forwarder.ts'
export { LAMBDA_BUNDLING, LAMBDA_RUNTIME } from './functions.ts'
export { SpotSwap } from './spotswap.ts'
export type { SpotSwapProps } from './spotswap-props.ts'
export { createSpotSwapStacks, SpotSwapForwarderStack, SpotSwapStack, SpotSwapStage } from './stacks.ts'
