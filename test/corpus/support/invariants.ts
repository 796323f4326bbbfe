/**
 * Safety invariants checked around every mutating call the replacer makes on the fake cloud, not just
 * at the end of a run: a transient dip below desired capacity in the middle of a run is a violation too.
 */
import { TAG_REPLACING_INSTANCE } from '../../../lambdas/core/constants.ts'
import { PORT_WRITES } from '../../../lambdas/core/port.ts'
import type { FakeCloud } from '../../fakes/fake-cloud.ts'
import { membersOf } from './worlds.ts'

const MUTATING = PORT_WRITES

/** Every string anywhere in a call's arguments. */
const stringsIn = (value: unknown): string[] => {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(stringsIn)
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsIn)
  return []
}

/** The instance ids a call would take out of service. */
const retiredBy = (method: string, args: readonly unknown[]): string[] => {
  if (method === 'terminateInGroup') return [args[0] as string]
  if (method === 'terminateInstances') return [...(args[0] as string[])]
  if (method === 'detachInstances') return [...(args[1] as string[])]
  return []
}

export interface Watch {
  readonly violations: string[]
}

/**
 * Wraps the cloud's mutating methods. `group` is the managed group under test; `untouchable` are names
 * and ids no call may mention (other groups and their instances).
 */
export const watchInvariants = (cloud: FakeCloud, group: string, untouchable: readonly string[]): Watch => {
  const violations: string[] = []
  const desiredAtStart = cloud.group(group).desiredCapacity
  const forbidden = new Set(untouchable)

  const before = (method: string, args: readonly unknown[]): void => {
    for (const name of stringsIn(args).filter((s) => forbidden.has(s)))
      violations.push(`${method} named ${name}, which belongs to another group`)
    const members = cloud.group(group).members
    for (const id of retiredBy(method, args)) {
      if (cloud.instances.get(id)?.lifecycle !== 'on-demand' || members.get(id) !== 'InService') continue
      const replacementAttached = [...members].some(
        ([memberId, state]) =>
          state === 'InService' && cloud.instances.get(memberId)?.tags[TAG_REPLACING_INSTANCE] === id,
      )
      if (!replacementAttached)
        violations.push(`${method} retired on-demand ${id} before its replacement was attached`)
    }
  }

  const after = (method: string): void => {
    const { inService } = membersOf(cloud, group)
    const { desiredCapacity } = cloud.group(group)
    const floor = Math.max(desiredAtStart, desiredCapacity)
    if (inService < floor)
      violations.push(`after ${method}: ${inService} InService, fewer than desired ${floor}`)
  }

  const methods = cloud as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
  for (const method of MUTATING) {
    const original = methods[method]?.bind(cloud)
    if (original === undefined) throw new Error(`FakeCloud has no ${method}`)
    methods[method] = async (...args: unknown[]) => {
      before(method, args)
      const result = await original(...args)
      after(method)
      return result
    }
  }
  return { violations }
}
