/**
 * What a region's commitments are and what they are applied to, as the billing module sees them. Adapters
 * (aws/commitments-*.ts, the simulator, a declared COMMITMENTS setting) convert their shapes into these.
 */

export type Tenancy = 'default' | 'dedicated'

/** What a Capacity Reservation matches an instance on: exactly these. */
export interface Placement {
  readonly type: string
  readonly zone: string
  readonly region: string
  /** The product description (`Linux/UNIX`, `Windows`, ...: core/platform.ts). */
  readonly platform: string
  readonly tenancy: Tenancy
}

/** One instance's on-demand running time in one clock hour. */
export interface UsageLine extends Placement {
  /** The instance id (or a made-up id for usage that is no instance: an unused Capacity Reservation slot). */
  readonly id: string
  /** A member of a group spotswap manages: it may be replaced, so it takes commitments last. */
  readonly managed: boolean
  /** The on-demand list price, USD per hour. */
  readonly onDemandRateUsd: number
  /** Seconds of the hour it runs: 3,600 for the whole hour. */
  readonly seconds: number
}

export interface ReservedInstances {
  readonly id: string
  /** `zonal`: one zone, exact type; `regional`: any zone of the region, size-flexible where AWS allows. */
  readonly scope: 'zonal' | 'regional'
  readonly type: string
  /** Zonal only. */
  readonly zone?: string | undefined
  readonly region: string
  readonly platform: string
  readonly tenancy: Tenancy
  readonly count: number
  /** What one of them costs per hour, fee and upfront amortised; 0 when not known (waste then counts 0 $). */
  readonly hourlyRateUsd: number
  /** When they expire (EC2's `End`), when known: a cached listing stops covering anything from then. */
  readonly endsAt?: Date | undefined
}

export interface SavingsPlan {
  readonly id: string
  /** `ec2-instance`: one family in one region; `compute`: any family, any region. */
  readonly kind: 'ec2-instance' | 'compute'
  /** EC2 Instance Savings Plans: the family and region they apply to. */
  readonly family?: string | undefined
  readonly region?: string | undefined
  /** USD per hour, paid whether used or not; for a Compute plan, the share this region may use. */
  readonly hourlyCommitmentUsd: number
  /** The plan's rate, USD per hour, by rateKey(type, region, platform, tenancy). */
  readonly rates: ReadonlyMap<string, number>
  /** Fraction off the on-demand rate for usage `rates` does not price (a declared plan); none when absent. */
  readonly discount?: number | undefined
}

export interface CapacityReservation extends Placement {
  readonly id: string
  /** Instances it reserves. */
  readonly count: number
  /** `open`: any matching instance uses it; `targeted` ones only instances that name it (never ours). */
  readonly open: boolean
  /** The on-demand list price of its type, USD per hour: what each unused slot costs. */
  readonly onDemandRateUsd: number
  /** When it expires (EC2's `EndDate`, for a limited one): a cached listing stops counting it from then. */
  readonly endsAt?: Date | undefined
  /**
   * When it becomes or became active (EC2's `StartDate`): until then it reserves nothing and is not billed
   * (upcoming.ts); absent or past, it is active. A listing of the region's instances read before a past
   * start is read again (upcoming.ts startedSince).
   */
  readonly startsAt?: Date | undefined
}

/** An open Capacity Reservation yet to start, weighed at some instant (upcoming.ts). */
export interface UpcomingReservation extends CapacityReservation {
  /** Share of a member's on-demand rate keeping it costs until the start: T / (T + U), 0..1. */
  readonly keepShare: number
}

/** A running on-demand instance of the region, managed or not, as a region-wide DescribeInstances shows it. */
export interface RunningOnDemand {
  readonly id: string
  readonly type: string
  readonly zone: string
  /** The product description (`Linux/UNIX`, `Windows`, ...: core/platform.ts). */
  readonly platform: string
  readonly tenancy: Tenancy
  readonly launchTimeMs: number
  /** Its `aws:autoscaling:groupName` tag: the group that launched it or that it was attached to. */
  readonly group?: string | undefined
  /** Read by id this run (listing-doubts.ts), not from the cached listing: it runs now. */
  readonly readNow?: boolean | undefined
}

/** The region's running instances as one region-wide read (cached) saw them. */
export interface RegionListing {
  /** When it was read (epoch ms): a reservation that became active since may hold instances it lacks. */
  readonly readAtMs: number
  readonly onDemand: readonly RunningOnDemand[]
  /** Every running instance's id, spot ones too: what the listing knew of at all. */
  readonly runningIds: readonly string[]
}

export interface Commitments {
  readonly reservedInstances: readonly ReservedInstances[]
  readonly savingsPlans: readonly SavingsPlan[]
  /** Active ones: they reserve capacity and are billed now. */
  readonly capacityReservations: readonly CapacityReservation[]
  /**
   * Open ones yet to start (upcoming.ts): not billed yet, but the members they will take cost only their
   * keep share until then, since spotswap launches no on-demand instance to fill them later.
   */
  readonly upcomingReservations?: readonly UpcomingReservation[] | undefined
  /**
   * The region's running on-demand instances, read (and cached) with the commitments: the usage that
   * competes with the managed members for them. Absent when not read (declared commitments).
   */
  readonly regionOnDemand?: readonly RunningOnDemand[] | undefined
  /**
   * Why the Savings Plans could not be read, when they could not: the RIs and reservations read still
   * apply, and a member they do not pay for in full may be a plan's, which cannot be told (unreadable.ts).
   */
  readonly savingsPlansUnreadable?: string | undefined
  /** Every running instance's id in that listing, spot ones too; absent when not read. */
  readonly regionRunningIds?: readonly string[] | undefined
}

export const NO_COMMITMENTS: Commitments = {
  reservedInstances: [],
  savingsPlans: [],
  capacityReservations: [],
}

export const rateKey = (type: string, region: string, platform: string, tenancy: Tenancy): string =>
  `${type}|${region}|${platform}|${tenancy}`
