/**
 * Reads the kill switch (core/region/kill-switch.ts) from its SSM parameter with one GetParameter
 * (https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_GetParameter.html). A failed read
 * or an unknown value is `on`, never an exception: the run goes on with cleanup only.
 *
 * Only the Lambdas' default-deps.ts import this file, at init, so the simulator never loads the SDK.
 */
import { GetParameterCommand, type SSMClient } from '@aws-sdk/client-ssm'
import { KILL_SWITCH_READ_TIMEOUT_MS } from '../core/constants.ts'
import { type KillSwitch, parseKillSwitch, unreadableKillSwitch } from '../core/region/kill-switch.ts'
import { ssmClient } from './clients.ts'

export interface KillSwitchReaderOptions {
  /** @default the region's shared client (clients.ts) */
  readonly client?: SSMClient
  /** @default KILL_SWITCH_READ_TIMEOUT_MS */
  readonly timeoutMs?: number
}

/** One GetParameter, given up after the timeout: the value, or an error naming what SSM said. */
const getParameter = async (
  name: string,
  region: string,
  options: KillSwitchReaderOptions,
): Promise<string> => {
  const client = options.client ?? ssmClient(region)
  const answer = await client.send(new GetParameterCommand({ Name: name }), {
    abortSignal: AbortSignal.timeout(options.timeoutMs ?? KILL_SWITCH_READ_TIMEOUT_MS),
  })
  const value = answer.Parameter?.Value
  if (typeof value !== 'string') throw new Error(`GetParameter answered no value for ${name}`)
  return value
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
  return name && region ? createKillSwitchReader(name, region) : undefined
}
