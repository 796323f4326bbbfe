/**
 * How an end-to-end suite reaches moto. The product code is unchanged: it reads AWS_ENDPOINT_URL, the
 * credentials and AWS_REGION through the SDK exactly as in Lambda, and these helpers set those for a test.
 *
 * Isolation: every test gets a brand-new empty moto account (`freshAccountPerTest`), so suites in parallel
 * workers share one moto_server without seeing each other's groups, and nobody needs `resetMoto`.
 */
import { randomInt } from 'node:crypto'
import { beforeEach, describe, inject } from 'vitest'
import { addLaunchTemplateTagAfterCreateFleet } from './launch-template-tag.ts'
import { createMarkerKey } from './marker-key.ts'

addLaunchTemplateTagAfterCreateFleet()

export interface MotoEnv {
  readonly endpoint: string
}

export interface MotoCredentials {
  readonly accountId: string
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly sessionToken: string | undefined
}

export interface MotoEnvOptions {
  /** @default 'us-east-1' */
  readonly region?: string
  /** @default TESTING_CREDENTIALS (moto's default account, shared by everyone using it) */
  readonly credentials?: MotoCredentials
}

export const DEFAULT_REGION = 'us-east-1'

/** moto maps any unknown access key to its default account. */
export const TESTING_CREDENTIALS: MotoCredentials = {
  accountId: '123456789012',
  accessKeyId: 'testing',
  secretAccessKey: 'testing',
  sessionToken: undefined,
}

/** Reserved TLD (RFC 2606): only ever seen by the body of a suite that is skipped, never contacted. */
const UNAVAILABLE: MotoEnv = { endpoint: 'http://moto-unavailable.invalid' }

/** The moto_server the global setup started; undefined when moto is not installed on this machine. */
export const motoEnv = (): MotoEnv | undefined => {
  const endpoint = inject('motoEndpoint')
  return endpoint === undefined ? undefined : { endpoint }
}

/**
 * `describe` for suites that need moto. Skipped, not failed, when moto is missing: the global setup has
 * already failed the run where moto is required (CI), and warned loudly everywhere else.
 */
export const describeMoto = (name: string, body: (moto: MotoEnv) => void): void => {
  const moto = motoEnv()
  describe.skipIf(moto === undefined)(name, () => body(moto ?? UNAVAILABLE))
}

/**
 * Empties every account and region of the shared moto_server. Only safe when nothing else uses moto at
 * the same time (e2e files run serially); prefer `freshAccountPerTest`.
 */
export const resetMoto = async (endpoint: string): Promise<void> => {
  const response = await fetch(`${endpoint}/moto-api/reset`, { method: 'POST' })
  if (!response.ok) throw new Error(`moto reset failed: HTTP ${response.status} ${await response.text()}`)
}

const xmlValue = (xml: string, element: string): string => {
  const value = new RegExp(`<${element}>([^<]+)</${element}>`).exec(xml)?.[1]
  if (value === undefined)
    throw new Error(`moto AssumeRole response has no <${element}>: ${xml.slice(0, 300)}`)
  return value
}

/**
 * Credentials for a new, empty moto account. moto keeps state per account id and learns the account of
 * temporary credentials from the role they assumed, so AssumeRole into a random account id is a private
 * sandbox. Plain HTTP because moto needs no signature; the Authorization header only routes it to STS.
 */
export const freshAccount = async (endpoint: string): Promise<MotoCredentials> => {
  const accountId = String(randomInt(100_000_000_000, 999_999_999_999))
  const response = await fetch(`${endpoint}/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: 'AWS4-HMAC-SHA256 Credential=testing/20240101/us-east-1/sts/aws4_request, Signature=0',
    },
    body: new URLSearchParams({
      Action: 'AssumeRole',
      Version: '2011-06-15',
      RoleArn: `arn:aws:iam::${accountId}:role/spotswap-e2e`,
      RoleSessionName: 'spotswap-e2e',
    }),
  })
  const xml = await response.text()
  if (!response.ok) throw new Error(`moto AssumeRole failed: HTTP ${response.status} ${xml.slice(0, 300)}`)
  return {
    accountId,
    accessKeyId: xmlValue(xml, 'AccessKeyId'),
    secretAccessKey: xmlValue(xml, 'SecretAccessKey'),
    sessionToken: xmlValue(xml, 'SessionToken'),
  }
}

/**
 * Variables that could send the SDK elsewhere or to other credentials on a developer machine; all are
 * saved and cleared first. Service-specific endpoint overrides (AWS_ENDPOINT_URL_EC2, ...) are included.
 */
const isAwsRoutingVariable = (name: string): boolean =>
  name.startsWith('AWS_ENDPOINT_URL') ||
  [
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_REGION',
    'AWS_DEFAULT_REGION',
    'AWS_PROFILE',
    'AWS_IGNORE_CONFIGURED_ENDPOINT_URLS',
  ].includes(name)

/** Points the SDK at moto through the environment; returns the function that puts everything back. */
export const setMotoEnv = (endpoint: string, options: MotoEnvOptions = {}): (() => void) => {
  const credentials = options.credentials ?? TESTING_CREDENTIALS
  const saved = Object.entries(process.env).filter(([name]) => isAwsRoutingVariable(name))
  for (const [name] of saved) delete process.env[name]
  process.env.AWS_ENDPOINT_URL = endpoint
  process.env.AWS_ACCESS_KEY_ID = credentials.accessKeyId
  process.env.AWS_SECRET_ACCESS_KEY = credentials.secretAccessKey
  if (credentials.sessionToken !== undefined) process.env.AWS_SESSION_TOKEN = credentials.sessionToken
  process.env.AWS_REGION = options.region ?? DEFAULT_REGION
  return () => {
    for (const name of Object.keys(process.env)) if (isAwsRoutingVariable(name)) delete process.env[name]
    for (const [name, value] of saved) process.env[name] = value
  }
}

/**
 * Runs `fn` with the SDK pointed at moto. SDK clients resolve endpoint, region and credentials once, so
 * build clients (and handler dependencies) inside `fn`, never at module load.
 */
export const withMotoEnv = async <T>(
  endpoint: string,
  fn: () => T | Promise<T>,
  options: MotoEnvOptions = {},
): Promise<T> => {
  const restore = setMotoEnv(endpoint, options)
  try {
    return await fn()
  } finally {
    restore()
  }
}

/**
 * Each test in the calling suite runs in its own empty moto account, with the environment pointed at it
 * and MARKER_KEY_ARN naming a marker key of that account, as a deployed stack sets it for both Lambdas.
 * Returns a reader for the current test's account (e.g. to build ARNs).
 */
export const freshAccountPerTest = (
  moto: MotoEnv,
  options: Omit<MotoEnvOptions, 'credentials'> = {},
): (() => MotoCredentials) => {
  let current: MotoCredentials | undefined
  beforeEach(async () => {
    current = await freshAccount(moto.endpoint)
    const restore = setMotoEnv(moto.endpoint, { ...options, credentials: current })
    const savedKey = process.env.MARKER_KEY_ARN
    process.env.MARKER_KEY_ARN = await createMarkerKey()
    return () => {
      if (savedKey === undefined) delete process.env.MARKER_KEY_ARN
      else process.env.MARKER_KEY_ARN = savedKey
      restore()
      current = undefined
    }
  })
  return () => {
    if (current === undefined)
      throw new Error('no moto account outside a test of a freshAccountPerTest suite')
    return current
  }
}
