/**
 * Instance refreshes: while one runs, Auto Scaling replaces the group's instances itself, so spotswap starts
 * nothing there. The statuses are DescribeInstanceRefreshes' own
 * (https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_InstanceRefresh.html).
 */

export interface InstanceRefresh {
  readonly id: string
  /** Pending, InProgress, Successful, Failed, Cancelling, Cancelled, RollbackInProgress, ... */
  readonly status: string
}

/**
 * What reading a group's refreshes gave: the refreshes, or an error other than throttling. An unreadable
 * state lets the group proceed as if none ran: a swap during a refresh wastes a launch but loses no
 * capacity, and an account whose reads of it always fail must not have every group blocked.
 */
export type RefreshObservation =
  | { readonly kind: 'read'; readonly refreshes: readonly InstanceRefresh[] }
  | { readonly kind: 'unreadable'; readonly error: string }
  /** Throttled: not known this run; the group waits for the next one. */
  | { readonly kind: 'throttled'; readonly error: string }

/**
 * The statuses in which a refresh is still replacing (or about to replace, or rolling back) instances;
 * `Baking` waits out its bake time after the last replacement and may still roll back.
 */
export const ACTIVE_REFRESH_STATUSES: ReadonlySet<string> = new Set([
  'Pending',
  'InProgress',
  'Cancelling',
  'RollbackInProgress',
  'Baking',
])

export const activeRefresh = (observation: RefreshObservation | undefined): InstanceRefresh | undefined =>
  observation?.kind === 'read'
    ? observation.refreshes.find((refresh) => ACTIVE_REFRESH_STATUSES.has(refresh.status))
    : undefined
