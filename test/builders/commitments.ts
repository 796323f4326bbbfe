/** Small builders for the commitments module's tests: one line or commitment, varied by overrides. */
import type { RegionUsageInput } from '../../lambdas/core/commitments/region-usage.ts'
import type {
  CapacityReservation,
  Commitments,
  ReservedInstances,
  RunningOnDemand,
  SavingsPlan,
  UsageLine,
} from '../../lambdas/core/commitments/types.ts'
import type { Group, Instance } from '../../lambdas/core/types.ts'

/** us-east-1 Linux on-demand list prices of the sizes the tests use (m5: $0.048 per normalization unit). */
export const LIST = {
  'm5.large': 0.096,
  'm5.xlarge': 0.192,
  'm5.2xlarge': 0.384,
  'c5.large': 0.085,
  'g4dn.xlarge': 0.526,
  'g4dn.2xlarge': 0.752,
} as const

const listOf = (type: string): number => (LIST as Readonly<Record<string, number>>)[type] ?? 0.1

/** Where every line and commitment is unless a test says otherwise. */
const HERE = { region: 'us-east-1', platform: 'Linux/UNIX', tenancy: 'default' } as const

export const usage = (id: string, type: string, overrides: Partial<UsageLine> = {}): UsageLine => ({
  id,
  type,
  zone: 'us-east-1a',
  ...HERE,
  managed: true,
  onDemandRateUsd: listOf(type),
  seconds: 3600,
  ...overrides,
})

export const ri = (
  id: string,
  type: string,
  overrides: Partial<ReservedInstances> = {},
): ReservedInstances => ({
  id,
  scope: 'regional',
  type,
  ...HERE,
  count: 1,
  hourlyRateUsd: listOf(type) * 0.6,
  ...overrides,
})

export const plan = (id: string, overrides: Partial<SavingsPlan> = {}): SavingsPlan => ({
  id,
  kind: 'compute',
  hourlyCommitmentUsd: 1,
  rates: new Map(),
  ...overrides,
})

export const reservation = (
  id: string,
  type: string,
  overrides: Partial<CapacityReservation> = {},
): CapacityReservation => ({
  id,
  type,
  zone: 'us-east-1a',
  ...HERE,
  count: 1,
  open: true,
  onDemandRateUsd: listOf(type),
  ...overrides,
})

export const commitments = (parts: Partial<Commitments>): Commitments => ({
  reservedInstances: [],
  savingsPlans: [],
  capacityReservations: [],
  ...parts,
})

/** One lane's input to region-usage.ts: its own groups observed, every managed group of the region listed. */
export const laneInput = (
  own: readonly Group[],
  regionGroups: readonly Group[],
  instances: readonly Instance[],
): RegionUsageInput => ({
  region: 'us-east-1',
  groups: own.map((group) => ({ group, productDescription: 'Linux/UNIX' })),
  regionGroups,
  instances: new Map(instances.map((i) => [i.id, i])),
  onDemandPrices: new Map([
    ['Linux/UNIX', { prices: new Map([['m5.large', LIST['m5.large']]]), source: 'embedded' as const }],
  ]),
})

/** An instance as the region-wide listing shows it (aws/commitments.ts), with its group's tag if any. */
export const listedRunning = (instance: Instance, group?: string): RunningOnDemand => ({
  id: instance.id,
  type: instance.type,
  zone: instance.zone,
  platform: 'Linux/UNIX',
  tenancy: 'default',
  launchTimeMs: instance.launchTime.getTime(),
  group,
})
