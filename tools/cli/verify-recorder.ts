/**
 * The port the handlers run on during `spotswap verify`: the real AWS adapter, with every write recorded
 * as it is made. Before an EC2 TerminateInstances it asks Auto Scaling which of the instances are group
 * members at that moment, so "members leave through Auto Scaling" is checked on what AWS said, not assumed.
 */
import { type CloudPort, PORT_WRITES } from '../../lambdas/core/port.ts'

export interface RecordedWrite {
  readonly method: (typeof PORT_WRITES)[number]
  readonly args: readonly unknown[]
  /** For terminateInstances: the instances that were members of a group when it was called. */
  readonly members?: readonly string[]
}

export const recordWrites = (cloud: CloudPort, writes: RecordedWrite[]): CloudPort => {
  const recorded = Object.fromEntries(
    PORT_WRITES.map((method) => [
      method,
      async (...args: unknown[]) => {
        const members =
          method === 'terminateInstances'
            ? [...(await cloud.groupOfInstances(args[0] as readonly string[])).keys()]
            : undefined
        writes.push({ method, args, ...(members === undefined ? {} : { members }) })
        return (cloud[method] as (...a: unknown[]) => Promise<unknown>)(...args)
      },
    ]),
  )
  return new Proxy(cloud, {
    get: (target, property, receiver) =>
      typeof property === 'string' && Object.hasOwn(recorded, property)
        ? recorded[property]
        : Reflect.get(target, property, receiver),
  })
}
