/**
 * A fixed piece of work measured in the same process as a planning pass, right after it: the engine's CPU
 * divided by this one's is what a change to the engine moves, and what the machine's speed, its other
 * load and its turbo state move much less, since both share them. The work is of the engine's kind
 * (objects with string fields built and dropped, maps filled and read, arrays filtered and sorted, strings
 * formatted), fixed in size and free of randomness, so it costs the same on every run of every commit.
 */

/** Records per round and rounds: a few hundred ms of CPU at most, long enough to time. */
const RECORDS = 20_000
const ROUNDS = 4

interface Row {
  readonly id: string
  readonly group: string
  readonly type: string
  readonly zone: string
  readonly price: number
  readonly tags: Readonly<Record<string, string>>
}

const TYPES = ['m5.large', 'c5.xlarge', 'r5.large', 'm6i.large', 'c6g.large', 't3.medium', 'm5d.xlarge']
const ZONES = ['a', 'b', 'c', 'd']

const rowsOf = (round: number): Row[] =>
  Array.from({ length: RECORDS }, (_, i) => ({
    id: `i-${(round * RECORDS + i).toString(16).padStart(17, '0')}`,
    group: `g${(i % 500).toString().padStart(3, '0')}`,
    type: TYPES[i % TYPES.length] as string,
    zone: `us-east-1${ZONES[i % ZONES.length]}`,
    price: ((i * 7919) % 1000) / 10_000,
    tags: { 'launched-for-asg': `g${i % 500}`, 'spotswap:replacement-attempt': `${i % 3}@x` },
  }))

/** One round: group rows, rank each group's by price, and format a line per group. Returns a checksum. */
const round = (rows: readonly Row[]): number => {
  const byGroup = new Map<string, Row[]>()
  for (const row of rows) {
    const list = byGroup.get(row.group)
    if (list === undefined) byGroup.set(row.group, [row])
    else list.push(row)
  }
  let checksum = 0
  for (const [group, list] of byGroup) {
    const ranked = list
      .filter((row) => row.tags['launched-for-asg'] !== undefined)
      .sort((a, b) => a.price - b.price || (a.id < b.id ? -1 : 1))
    const line = `${group}: ${ranked
      .slice(0, 5)
      .map((row) => `${row.type}/${row.zone} $${row.price.toFixed(4)}`)
      .join(', ')}`
    checksum = (checksum + line.length) % 1_000_003
  }
  return checksum
}

/** Runs the workload once; the checksum keeps the work from being optimised away. */
export const referenceWorkload = (): number => {
  let checksum = 0
  for (let r = 0; r < ROUNDS; r++) checksum = (checksum + round(rowsOf(r))) % 1_000_003
  return checksum
}

/** CPU of one run of the workload in this process, ms (after a warm-up run, so V8 has compiled it). */
export const measureReference = (): number => {
  referenceWorkload()
  const cpu = process.cpuUsage()
  referenceWorkload()
  const used = process.cpuUsage(cpu)
  return Math.round((used.user + used.system) / 100) / 10
}
