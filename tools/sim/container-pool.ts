/**
 * The replacer's Lambda containers under simulation. Lambda runs concurrent invocations of a function in
 * separate execution environments, and reuses an idle one for the next invocation
 * (https://docs.aws.amazon.com/lambda/latest/dg/lambda-concurrency.html): so a lane's run never shares an
 * in-flight load of a per-container cache (the catalogue, the prices) with another lane's run, and a
 * crash in one run cannot fail the others. The warm container is the world's own caches (the bench's
 * probes replace them to model a cold start); a run that starts while it is busy gets another, cold at first.
 */
import { type AdapterCaches, createAdapterCaches } from '../../lambdas/aws/cloud.ts'

export class ContainerPool {
  private readonly busy = new Set<AdapterCaches>()
  private readonly idle: AdapterCaches[] = []

  constructor(private readonly warm: () => AdapterCaches) {}

  /** The container of a run starting now: the warm one if idle, else an idle other one, else a new one. */
  acquire(): AdapterCaches {
    const warm = this.warm()
    const caches = !this.busy.has(warm) ? warm : (this.idle.pop() ?? createAdapterCaches())
    this.busy.add(caches)
    return caches
  }

  /** The run has ended: its container waits for the next invocation. */
  release(caches: AdapterCaches): void {
    this.busy.delete(caches)
    if (caches !== this.warm()) this.idle.push(caches)
  }
}
