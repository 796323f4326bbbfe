/**
 * How spotswap's Lambdas are built: NodejsFunction bundled by the project's own esbuild (no Docker), an
 * explicit role with no managed policies, and a log group with retention that the construct owns.
 */
import { fileURLToPath } from 'node:url'
import { type Duration, RemovalPolicy } from 'aws-cdk-lib'
import { type IRole, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam'
import { Architecture, type IDestination, Runtime } from 'aws-cdk-lib/aws-lambda'
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs'
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs'
import type { Construct } from 'constructs'

/** The repository root: entry points are resolved from here, wherever the CDK app runs from. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url))

export const REPLACER_ENTRY = fileURLToPath(new URL('../lambdas/replacer/handler.ts', import.meta.url))
export const INTERRUPTION_ENTRY = fileURLToPath(
  new URL('../lambdas/interruption/handler.ts', import.meta.url),
)

/** Pinned rather than NODEJS_LATEST: a deploy must not change the runtime under the user's feet. */
export const LAMBDA_RUNTIME = Runtime.NODEJS_24_X

/**
 * One esbuild configuration for both Lambdas, exported so cold-start measurements bundle exactly what
 * is deployed. The SDK is bundled (not taken from the runtime) so the deployed clients are the tested
 * versions; minified to shorten module parse on cold start, with names kept because errors are
 * classified by name, and source maps so stack traces in the logs point at the TypeScript.
 */
export const LAMBDA_BUNDLING: BundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node24',
  mainFields: ['module', 'main'],
  // Some CommonJS dependencies call require(); ESM output has none unless we create it.
  banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  externalModules: [],
  minify: true,
  keepNames: true,
  sourceMap: true,
  sourcesContent: false,
}

export interface SpotSwapFunctionProps {
  readonly entry: string
  readonly description: string
  readonly memorySize: number
  readonly timeout: Duration
  readonly environment: Readonly<Record<string, string>>
  readonly logRetention: RetentionDays
  readonly reservedConcurrentExecutions?: number
  /** Where Lambda sends asynchronous invocations that failed every attempt. */
  readonly onFailure: IDestination
  readonly retryAttempts: number
  readonly maxEventAge: Duration
}

export interface SpotSwapFunction {
  readonly fn: NodejsFunction
  readonly role: IRole
  readonly logGroup: LogGroup
}

export const createSpotSwapFunction = (
  scope: Construct,
  id: string,
  props: SpotSwapFunctionProps,
): SpotSwapFunction => {
  const logGroup = new LogGroup(scope, `${id}Logs`, {
    retention: props.logRetention,
    // Uninstalling spotswap should leave nothing behind; logs older than the retention are gone anyway.
    removalPolicy: RemovalPolicy.DESTROY,
  })
  // An explicit role: the default one carries the AWSLambdaBasicExecutionRole managed policy, which
  // would allow writing to any log group in the account.
  const role = new Role(scope, `${id}Role`, {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: `spotswap ${id}: least-privilege execution role`,
  })
  logGroup.grantWrite(role)
  const fn = new NodejsFunction(scope, id, {
    entry: props.entry,
    handler: 'handler',
    projectRoot: PROJECT_ROOT,
    depsLockFilePath: fileURLToPath(new URL('../package-lock.json', import.meta.url)),
    runtime: LAMBDA_RUNTIME,
    // Graviton: about 20% cheaper per GB-second than x86 for the same work, and nothing here is native.
    architecture: Architecture.ARM_64,
    description: props.description,
    memorySize: props.memorySize,
    timeout: props.timeout,
    role,
    logGroup,
    bundling: LAMBDA_BUNDLING,
    environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
    onFailure: props.onFailure,
    retryAttempts: props.retryAttempts,
    maxEventAge: props.maxEventAge,
    ...(props.reservedConcurrentExecutions === undefined
      ? {}
      : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
  })
  return { fn, role, logGroup }
}
