/**
 * Simulated time: a clock that only moves forward and a queue of things due at given instants. Events at
 * the same instant run by priority, then in the order they were scheduled, so a run is deterministic.
 */

/** Lower runs first at the same instant: the world settles before anyone looks at it. */
export const Priority = {
  /** EC2 and Auto Scaling state transitions (boots, shutdowns, hook expiry). */
  transition: 0,
  /** Things done to the account from outside: owner scaling, capacity changes, interruptions. */
  external: 1,
  /** Lambda invocations (interruption handler, launch-event runs). */
  invocation: 2,
  /** The replacer's schedule tick. */
  tick: 3,
  /** Bookkeeping that must see everything else of the instant (orphan deadlines). */
  audit: 4,
} as const

export interface ScheduledEvent {
  readonly at: number
  readonly priority: number
  readonly seq: number
  readonly label: string
  readonly run: () => void | Promise<void>
}

const before = (a: ScheduledEvent, b: ScheduledEvent): boolean =>
  a.at !== b.at ? a.at < b.at : a.priority !== b.priority ? a.priority < b.priority : a.seq < b.seq

export class SimClock {
  private current: number
  private seq = 0
  private readonly heap: ScheduledEvent[] = []

  constructor(startMs: number) {
    this.current = startMs
  }

  /** Epoch milliseconds. */
  get now(): number {
    return this.current
  }

  nowDate(): Date {
    return new Date(this.current)
  }

  /** Moves time forward (API latency, SDK backoff); never backwards. */
  advanceTo(ms: number): void {
    if (ms > this.current) this.current = ms
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.current + ms)
  }

  schedule(at: number, priority: number, label: string, run: ScheduledEvent['run']): void {
    this.push({ at, priority, seq: this.seq++, label, run })
  }

  get pending(): number {
    return this.heap.length
  }

  /** The next event due at or before `until`, removed from the queue; the clock moves to its time. */
  popDue(until: number): ScheduledEvent | undefined {
    const top = this.heap[0]
    if (top === undefined || top.at > until) return undefined
    const last = this.heap.pop() as ScheduledEvent
    if (this.heap.length > 0) {
      this.heap[0] = last
      this.siftDown(0)
    }
    // An event due while an invocation was running (its calls advanced the clock) runs late, not in the past.
    this.advanceTo(top.at)
    return top
  }

  private push(event: ScheduledEvent): void {
    this.heap.push(event)
    let i = this.heap.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!before(this.heap[i] as ScheduledEvent, this.heap[parent] as ScheduledEvent)) break
      this.swap(i, parent)
      i = parent
    }
  }

  private siftDown(start: number): void {
    let i = start
    for (;;) {
      const left = 2 * i + 1
      const right = left + 1
      let best = i
      if (
        left < this.heap.length &&
        before(this.heap[left] as ScheduledEvent, this.heap[best] as ScheduledEvent)
      )
        best = left
      if (
        right < this.heap.length &&
        before(this.heap[right] as ScheduledEvent, this.heap[best] as ScheduledEvent)
      )
        best = right
      if (best === i) return
      this.swap(i, best)
      i = best
    }
  }

  private swap(a: number, b: number): void {
    const held = this.heap[a] as ScheduledEvent
    this.heap[a] = this.heap[b] as ScheduledEvent
    this.heap[b] = held
  }
}
