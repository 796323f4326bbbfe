/**
 * EC2's scheduled events on instances (DescribeInstanceStatus `Events[]`): a retirement, stop, reboot or
 * maintenance EC2 will carry out from NotBefore on
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribeInstanceStatus.html). AWS reports
 * them, no one else can write them: a member with one is replaced ahead, serve-before-retire.
 */

/** The event codes DescribeInstanceStatus reports (API_InstanceStatusEvent `code`); every one costs capacity. */
export const SCHEDULED_EVENT_CODES = [
  'instance-retirement',
  'instance-stop',
  'system-reboot',
  'instance-reboot',
  'system-maintenance',
] as const

export type ScheduledEventCode = (typeof SCHEDULED_EVENT_CODES)[number]

export interface ScheduledEvent {
  readonly instanceId: string
  readonly code: ScheduledEventCode
  /** The earliest time EC2 may carry it out. */
  readonly notBefore: Date
}

/** What a run knows of scheduled events: read (by instance id), or why not. A failed read changes nothing. */
export type ScheduledEventsObservation =
  | { readonly kind: 'read'; readonly events: ReadonlyMap<string, ScheduledEvent> }
  | { readonly kind: 'unreadable'; readonly error: string }

/** One event as the API describes it, before it is believed. */
export interface DescribedEvent {
  readonly instanceId: string | undefined
  readonly code: string | undefined
  readonly description: string | undefined
  readonly notBefore: Date | undefined
}

const isCode = (code: string | undefined): code is ScheduledEventCode =>
  (SCHEDULED_EVENT_CODES as readonly string[]).includes(code ?? '')

/**
 * A completed or canceled event is still described for up to a week, its description starting with
 * `[Completed]` or `[Canceled]` (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_InstanceStatusEvent.html):
 * those are over. Without a NotBefore an event says nothing to act on.
 */
export const scheduledEvent = (described: DescribedEvent): ScheduledEvent | undefined => {
  const { instanceId, code, description, notBefore } = described
  if (instanceId === undefined || !isCode(code) || notBefore === undefined) return undefined
  if (Number.isNaN(notBefore.getTime())) return undefined
  if (/^\[(Completed|Canceled)\]/.test(description ?? '')) return undefined
  return { instanceId, code, notBefore }
}

/** The earliest pending event of each instance. */
export const eventsByInstance = (events: readonly ScheduledEvent[]): Map<string, ScheduledEvent> => {
  const byInstance = new Map<string, ScheduledEvent>()
  for (const event of events) {
    const known = byInstance.get(event.instanceId)
    if (known === undefined || event.notBefore < known.notBefore) byInstance.set(event.instanceId, event)
  }
  return byInstance
}
