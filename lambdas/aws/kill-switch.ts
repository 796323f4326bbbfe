/**
 * Reads the kill switch (core/region/kill-switch.ts) from its SSM parameter with one GetParameter
 * (https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_GetParameter.html). A failed read
 * or an unknown value is `on`, never an exception: the run goes on with cleanup only.
 *
 * The request is signed here (Signature Version 4, with the SDK's own signer and credential chain) over
 * SSM's JSON protocol, because the project does not carry @aws-sdk/client-ssm; it honours
 * AWS_ENDPOINT_URL_SSM and AWS_ENDPOINT_URL as the SDK does
 * (https://docs.aws.amazon.com/sdkref/latest/guide/feature-ss-endpoints.html).
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto'
import { defaultProvider } from '@aws-sdk/credential-provider-node'
import { SignatureV4 } from '@smithy/signature-v4'
import type { AwsCredentialIdentity, Provider } from '@smithy/types'
import { KILL_SWITCH_READ_TIMEOUT_MS } from '../core/constants.ts'
import { type KillSwitch, parseKillSwitch, unreadableKillSwitch } from '../core/region/kill-switch.ts'

/** SHA-256 (HMAC-SHA-256 with a secret) in the shape the signer takes. */
class Sha256 {
  private readonly hash: Hash | Hmac
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash =
      secret === undefined
        ? createHash('sha256')
        : createHmac('sha256', typeof secret === 'string' ? secret : Buffer.from(secret as ArrayBuffer))
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(typeof data === 'string' ? data : Buffer.from(data as ArrayBuffer))
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()))
  }
}

export interface KillSwitchReaderOptions {
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly credentials?: Provider<AwsCredentialIdentity>
  readonly fetch?: typeof fetch
  /** @default KILL_SWITCH_READ_TIMEOUT_MS */
  readonly timeoutMs?: number
}

const endpointOf = (region: string, env: Readonly<Record<string, string | undefined>>): URL =>
  new URL(
    env.AWS_ENDPOINT_URL_SSM?.trim() || env.AWS_ENDPOINT_URL?.trim() || `https://ssm.${region}.amazonaws.com`,
  )

/**
 * One SSM call over its JSON protocol (`AmazonSSM.<action>`): the response's payload, or an error named
 * after the `__type` SSM answered with.
 */
export const ssmRequest = async (
  action: string,
  payload: Readonly<Record<string, unknown>>,
  region: string,
  options: KillSwitchReaderOptions = {},
): Promise<Record<string, unknown>> => {
  const endpoint = endpointOf(region, options.env ?? process.env)
  const signer = new SignatureV4({
    service: 'ssm',
    region,
    credentials: options.credentials ?? defaultProvider(),
    sha256: Sha256,
  })
  const signed = await signer.sign({
    method: 'POST',
    protocol: endpoint.protocol,
    hostname: endpoint.hostname,
    ...(endpoint.port === '' ? {} : { port: Number(endpoint.port) }),
    path: endpoint.pathname,
    query: {},
    headers: {
      host: endpoint.host,
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AmazonSSM.${action}`,
    },
    body: JSON.stringify(payload),
  })
  const response = await (options.fetch ?? fetch)(endpoint, {
    method: 'POST',
    headers: signed.headers,
    body: signed.body as string,
    signal: AbortSignal.timeout(options.timeoutMs ?? KILL_SWITCH_READ_TIMEOUT_MS),
  })
  const text = await response.text()
  let answer: Record<string, unknown> = {}
  try {
    answer = JSON.parse(text) as Record<string, unknown>
  } catch {
    // Reported below with the status.
  }
  if (response.ok) return answer
  const type = typeof answer.__type === 'string' ? answer.__type.split('#').pop() : undefined
  const error = new Error(String(answer.message ?? answer.Message ?? text.slice(0, 200)))
  error.name = type ?? `HTTP ${response.status}`
  throw error
}

/** One GetParameter: the value, or an error naming what SSM said. */
const getParameter = async (
  name: string,
  region: string,
  options: KillSwitchReaderOptions,
): Promise<string> => {
  const answer = await ssmRequest('GetParameter', { Name: name }, region, options)
  const parameter = answer.Parameter as { Value?: unknown } | undefined
  if (typeof parameter?.Value !== 'string') throw new Error(`GetParameter answered no value for ${name}`)
  return parameter.Value
}

/**
 * The kill switch reader for the parameter `name` in `region` (the stack's own region). Never throws.
 */
export const createKillSwitchReader =
  (name: string, region: string, options: KillSwitchReaderOptions = {}): (() => Promise<KillSwitch>) =>
  async () => {
    try {
      return parseKillSwitch(await getParameter(name, region, options))
    } catch (error) {
      return unreadableKillSwitch(
        error instanceof Error
          ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`
          : String(error),
      )
    }
  }

/** The reader the stack configures (KILL_SWITCH_PARAMETER), or none. */
export const killSwitchFromEnv = (
  env: Readonly<Record<string, string | undefined>>,
): (() => Promise<KillSwitch>) | undefined => {
  const name = env.KILL_SWITCH_PARAMETER?.trim()
  const region = env.AWS_REGION?.trim()
  return name && region ? createKillSwitchReader(name, region, { env }) : undefined
}
