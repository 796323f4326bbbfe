/**
 * What every adapter module needs for one region: the clients (sdk.ts), a counted way to call them, a logger,
 * a clock and the per-container caches. Built once by createAwsCloud.
 */
import type { Commitments, RegionListing, SavingsPlan } from '../core/commitments/types.ts'
import {
  CATALOG_CACHE_TTL_MS,
  COMMITMENTS_CACHE_TTL_MS,
  ECS_CAPACITY_PROVIDERS_CACHE_TTL_MS,
  PRICE_CACHE_TTL_MS,
  SCHEDULED_EVENTS_TTL_MS,
} from '../core/constants.ts'
import type { EcsCapacityProvider } from '../core/ecs/capacity-provider.ts'
import type { EcsCluster } from '../core/ecs/cluster.ts'
import type { Log } from '../core/log.ts'
import type { ScheduledEvent } from '../core/maintenance/events.ts'
import type { Catalog, OnDemandPrices } from '../core/types.ts'
import type { AwsClients } from './sdk.ts'
import { TtlCache } from './ttl-cache.ts'

export type AwsService =
  | 'ec2'
  | 'autoscaling'
  | 'cloudformation'
  | 'pricing'
  | 'elasticloadbalancing'
  | 'kms'
  | 'ecs'
  | 'savingsplans'

/** A plan as read, before its rates: what decides whether it applies in a region. */
export interface ActiveSavingsPlan {
  readonly id: string
  readonly kind: SavingsPlan['kind']
  readonly family: string | undefined
  readonly region: string | undefined
  readonly hourlyCommitmentUsd: number
}

/** `service:Operation`, e.g. `ec2:CreateFleet`, `autoscaling:AttachInstances`. */
export type ApiCallName = `${AwsService}:${string}`

/** Told about every SDK call (one per request, not per retry), so a run can report its API usage. */
export type ApiCallListener = (name: ApiCallName) => void

export type AdapterLogger = Pick<Log, 'info' | 'warn'>

export interface AdapterCaches {
  readonly catalog: TtlCache<Catalog>
  readonly onDemandPrices: TtlCache<OnDemandPrices>
  /** KMS's verdict on each marker MAC already asked about (aws/markers.ts): a written value never changes. */
  readonly markerVerdicts: Map<string, 'valid' | 'bad-mac'>
  /** By region: one DescribeInstanceStatus per region per SCHEDULED_EVENTS_TTL_MS, whatever the groups. */
  readonly scheduledEvents: TtlCache<ScheduledEvent[]>
  readonly ecsCapacityProviders: TtlCache<EcsCapacityProvider[]>
  /** By region: its ECS clusters and their capacity providers, as long as the providers (aws/ecs.ts). */
  readonly ecsClusters: TtlCache<EcsCluster[]>
  readonly commitments: TtlCache<Commitments>
  /** By region: its running instances, read with the commitments (aws/commitments.ts). */
  readonly regionOnDemand: TtlCache<RegionListing>
  /** The account's active Savings Plans, under one key: the endpoint is global, the list the same everywhere. */
  readonly savingsPlans: TtlCache<ActiveSavingsPlan[]>
  /** One plan's rates, by plan, region and the instance types asked for. */
  readonly savingsPlanRates: TtlCache<ReadonlyMap<string, number>>
}

export const createAdapterCaches = (): AdapterCaches => ({
  catalog: new TtlCache(CATALOG_CACHE_TTL_MS),
  onDemandPrices: new TtlCache(PRICE_CACHE_TTL_MS),
  markerVerdicts: new Map(),
  scheduledEvents: new TtlCache(SCHEDULED_EVENTS_TTL_MS),
  ecsCapacityProviders: new TtlCache(ECS_CAPACITY_PROVIDERS_CACHE_TTL_MS),
  ecsClusters: new TtlCache(ECS_CAPACITY_PROVIDERS_CACHE_TTL_MS),
  commitments: new TtlCache(COMMITMENTS_CACHE_TTL_MS),
  regionOnDemand: new TtlCache(COMMITMENTS_CACHE_TTL_MS),
  savingsPlans: new TtlCache(COMMITMENTS_CACHE_TTL_MS),
  savingsPlanRates: new TtlCache(COMMITMENTS_CACHE_TTL_MS),
})

export interface AwsContext extends AwsClients {
  readonly region: string
  /** Every SDK call goes through here: `call('ec2:CreateFleet', () => ctx.ec2.createFleet(...))`. */
  readonly call: <T>(name: ApiCallName, send: () => Promise<T>) => Promise<T>
  readonly logger: AdapterLogger
  /** Epoch milliseconds; only cache expiry reads it. */
  readonly now: () => number
  readonly caches: AdapterCaches
  /** The KMS HMAC key that signs and verifies markers (MARKER_KEY_ARN); undefined: none is signed or believed. */
  readonly markerKeyArn: string | undefined
  /** Group name → AutoScalingGroupARN, as this region's reads saw them: the MAC of a group's marker covers its ARN. */
  readonly groupArns: Map<string, string>
}

export const countedCall =
  (onApiCall: ApiCallListener | undefined) =>
  <T>(name: ApiCallName, send: () => Promise<T>): Promise<T> => {
    onApiCall?.(name)
    return send()
  }
