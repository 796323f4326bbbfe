/**
 * What every adapter module needs for one region: the clients (sdk.ts), a counted way to call them, a logger,
 * a clock and the per-container caches. Built once by createAwsCloud.
 */
import type { Commitments } from '../core/commitments/types.ts'
import { CATALOG_CACHE_TTL_MS, COMMITMENTS_CACHE_TTL_MS, PRICE_CACHE_TTL_MS } from '../core/constants.ts'
import type { Log } from '../core/log.ts'
import type { Catalog, OnDemandPrices } from '../core/types.ts'
import type { AwsClients } from './sdk.ts'
import { TtlCache } from './ttl-cache.ts'

export type AwsService = 'ec2' | 'autoscaling' | 'cloudformation' | 'pricing' | 'elasticloadbalancing'

/** `service:Operation`, e.g. `ec2:CreateFleet`, `autoscaling:AttachInstances`. */
export type ApiCallName = `${AwsService}:${string}`

/** Told about every SDK call (one per request, not per retry), so a run can report its API usage. */
export type ApiCallListener = (name: ApiCallName) => void

export type AdapterLogger = Pick<Log, 'info' | 'warn'>

export interface AdapterCaches {
  readonly catalog: TtlCache<Catalog>
  readonly onDemandPrices: TtlCache<OnDemandPrices>
  readonly commitments: TtlCache<Commitments>
}

export const createAdapterCaches = (): AdapterCaches => ({
  catalog: new TtlCache(CATALOG_CACHE_TTL_MS),
  onDemandPrices: new TtlCache(PRICE_CACHE_TTL_MS),
  commitments: new TtlCache(COMMITMENTS_CACHE_TTL_MS),
})

export interface AwsContext extends AwsClients {
  readonly region: string
  /** Every SDK call goes through here: `call('ec2:CreateFleet', () => ctx.ec2.createFleet(...))`. */
  readonly call: <T>(name: ApiCallName, send: () => Promise<T>) => Promise<T>
  readonly logger: AdapterLogger
  /** Epoch milliseconds; only cache expiry reads it. */
  readonly now: () => number
  readonly caches: AdapterCaches
}

export const countedCall =
  (onApiCall: ApiCallListener | undefined) =>
  <T>(name: ApiCallName, send: () => Promise<T>): Promise<T> => {
    onApiCall?.(name)
    return send()
  }
