/**
 * EC2's published API throttling: a token bucket per API action, per account and region, plus resource
 * buckets that count instances for TerminateInstances and RunInstances. Figures from "Request throttling
 * for the Amazon EC2 API" (EC2 Developer Guide): non-mutating actions 100 tokens refilled at 20/s,
 * mutating actions 50 at 5/s, and the uncategorized actions' own figures. Auto Scaling publishes no
 * bucket sizes, so its calls are only throttled through injected faults.
 */

export interface BucketSpec {
  readonly capacity: number
  /** Tokens per second. */
  readonly refillPerSecond: number
}

const NON_MUTATING: BucketSpec = { capacity: 100, refillPerSecond: 20 }
const MUTATING: BucketSpec = { capacity: 50, refillPerSecond: 5 }

/** Actions with their own published request buckets (the "uncategorized actions" table). */
const OWN_REQUEST_BUCKETS: Readonly<Record<string, BucketSpec>> = {
  CreateTags: { capacity: 100, refillPerSecond: 10 },
  DeleteTags: { capacity: 100, refillPerSecond: 10 },
  RunInstances: { capacity: 5, refillPerSecond: 2 },
  StartInstances: { capacity: 5, refillPerSecond: 2 },
  TerminateInstances: { capacity: 100, refillPerSecond: 5 },
}

/** Resource buckets: one token per instance the request acts on. */
export const RESOURCE_BUCKETS: Readonly<Record<string, BucketSpec>> = {
  RunInstances: { capacity: 1000, refillPerSecond: 2 },
  TerminateInstances: { capacity: 1000, refillPerSecond: 20 },
  StartInstances: { capacity: 1000, refillPerSecond: 2 },
  StopInstances: { capacity: 1000, refillPerSecond: 20 },
}

const isNonMutating = (action: string): boolean => /^(Describe|List|Search|Get)/.test(action)

/**
 * The request bucket of an EC2 action. The adapter always filters or paginates its Describe calls, so
 * the smaller "unfiltered and unpaginated" bucket never applies.
 */
export const requestBucketSpec = (action: string): BucketSpec =>
  OWN_REQUEST_BUCKETS[action] ?? (isNonMutating(action) ? NON_MUTATING : MUTATING)

export class TokenBucket {
  private tokens: number
  private updatedMs: number

  constructor(
    readonly spec: BucketSpec,
    nowMs: number,
  ) {
    this.tokens = spec.capacity
    this.updatedMs = nowMs
  }

  /** Takes `count` tokens if they are there; a request that finds too few takes none and is throttled. */
  take(nowMs: number, count = 1): boolean {
    this.refill(nowMs)
    if (this.tokens < count) return false
    this.tokens -= count
    return true
  }

  available(nowMs: number): number {
    this.refill(nowMs)
    return this.tokens
  }

  private refill(nowMs: number): void {
    const elapsed = Math.max(0, nowMs - this.updatedMs) / 1000
    this.tokens = Math.min(this.spec.capacity, this.tokens + elapsed * this.spec.refillPerSecond)
    this.updatedMs = Math.max(this.updatedMs, nowMs)
  }
}

/** One region's EC2 buckets, created full on first use. */
export class Ec2Throttle {
  private readonly requests = new Map<string, TokenBucket>()
  private readonly resources = new Map<string, TokenBucket>()

  /** True when the request may proceed; `resourceCount` instances are charged to a resource bucket. */
  admit(action: string, nowMs: number, resourceCount = 0): boolean {
    const request = this.bucket(this.requests, action, requestBucketSpec(action), nowMs)
    const resourceSpec = RESOURCE_BUCKETS[action]
    if (resourceSpec === undefined || resourceCount === 0) return request.take(nowMs)
    const resource = this.bucket(this.resources, action, resourceSpec, nowMs)
    // Both buckets must allow the request; check first so a refusal consumes nothing.
    if (request.available(nowMs) < 1 || resource.available(nowMs) < resourceCount) return false
    return request.take(nowMs) && resource.take(nowMs, resourceCount)
  }

  private bucket(
    buckets: Map<string, TokenBucket>,
    action: string,
    spec: BucketSpec,
    nowMs: number,
  ): TokenBucket {
    let bucket = buckets.get(action)
    if (bucket === undefined) {
      bucket = new TokenBucket(spec, nowMs)
      buckets.set(action, bucket)
    }
    return bucket
  }
}
