/**
 * The whole simulated account: the clock, the regions, the catalogue, the random streams, and the two
 * ways state changes are made known: observers (accounting, invariant checks) and the EventBridge
 * events EC2 and Auto Scaling emit (delivered to the Lambdas by the runner).
 */
import { createAdapterCaches } from '../../lambdas/aws/cloud.ts'
import type { Catalog, InstanceState } from '../../lambdas/core/types.ts'
import type { ApiCounter } from './api-gate.ts'
import type { SimClock } from './clock.ts'
import { SimMarkerKey } from './marker-key.ts'
import type { Rng } from './rng.ts'
import type { SimGroup, SimInstance, SimRegion } from './state.ts'

/** What EC2 and Auto Scaling tell EventBridge, in the simulator's terms. */
export type SimEvent =
  | { readonly kind: 'spot-interruption'; readonly region: string; readonly instanceId: string }
  | { readonly kind: 'rebalance-recommendation'; readonly region: string; readonly instanceId: string }
  | {
      readonly kind: 'instance-launch-successful'
      readonly region: string
      readonly group: string
      readonly instanceId: string
    }

/** Told about every state change; accounting and invariant checks listen here. */
export interface SimObserver {
  instanceLaunched?(instance: SimInstance): void
  instanceStateChanged?(instance: SimInstance, from: InstanceState): void
  /** An instance joined a group through AttachInstances. */
  attached?(group: SimGroup, instance: SimInstance): void
  interruptionWarned?(instance: SimInstance): void
  /** A CreateFleet request for a group launched nothing. */
  launchFailed?(region: string, group: string): void
}

export interface RandomStreams {
  /** Auto Scaling's own choices (scale-in victims). */
  readonly asg: Rng
  /** Which instances a capacity drop or a scripted interruption hits. */
  readonly interruptions: Rng
  /** SDK backoff jitter. */
  readonly backoff: Rng
  /** Injected faults. */
  readonly faults: Rng
  /** Which spot instances spotswap launches have a broken image (a group's unhealthyReplacementFraction). */
  readonly health: Rng
}

export class World {
  readonly regions = new Map<string, SimRegion>()
  /**
   * The adapter's container caches (catalogue, on-demand prices): a warm Lambda reads them once per TTL,
   * so the simulation does too. Replaced by empty ones to model a new container (the scale probe's cold passes).
   */
  adapterCaches = createAdapterCaches()
  /** The account's KMS HMAC key, which signs and verifies spotswap's markers (sdk/kms.ts). */
  readonly markerKey = new SimMarkerKey()
  private readonly observers: SimObserver[] = []
  private eventSink: (event: SimEvent) => void = () => {}
  private nextId = 0x1000
  private nextTemplateId = 0

  constructor(
    readonly clock: SimClock,
    readonly catalog: Catalog,
    readonly random: RandomStreams,
    readonly counter: ApiCounter,
  ) {}

  region(name: string): SimRegion {
    const region = this.regions.get(name)
    if (region === undefined) throw new Error(`simulator: no region ${name}`)
    return region
  }

  observe(observer: SimObserver): void {
    this.observers.push(observer)
  }

  notify(tell: (observer: SimObserver) => void): void {
    for (const observer of this.observers) tell(observer)
  }

  /** Where EventBridge events go; the runner turns them into Lambda invocations. */
  onEvent(sink: (event: SimEvent) => void): void {
    this.eventSink = sink
  }

  emit(event: SimEvent): void {
    this.eventSink(event)
  }

  /** Temporary launch templates' ids (`lt-f` and 16 hex digits), apart from the groups' own. */
  newTemplateId(): string {
    this.nextTemplateId += 1
    return `lt-f${this.nextTemplateId.toString(16).padStart(16, '0')}`
  }

  /** EC2-shaped ids (`i-` and 17 hex digits), in launch order. */
  newInstanceId(): string {
    this.nextId += 1
    return `i-${this.nextId.toString(16).padStart(17, '0')}`
  }
}
