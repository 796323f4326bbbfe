/** A revert through the replacer against a FakeCloud: the group it starts from and what to look at. */
import { REGION_LANES } from '../../lambdas/core/constants.ts'
import { laneOf } from '../../lambdas/core/region/lanes.ts'
import { revertRequestEvent } from '../../lambdas/replacer/event-registry.ts'
import type { FakeCloud } from '../fakes/fake-cloud.ts'
import { cloudWithFleet, START } from './support.ts'

/** A converged group: one on-demand member, two spot ones, MaxSize 4. */
export const convergedFleet = (groupOverrides = {}): FakeCloud => {
  const cloud = cloudWithFleet(1, { maxSize: 4, ...groupOverrides })
  for (let i = 0; i < 2; i++)
    cloud.addInstance({
      group: 'web',
      lifecycle: 'spot',
      launchTime: new Date(START.getTime() - (50 - i) * 60_000),
    })
  return cloud
}

export const minutesLater = (minutes: number): string =>
  new Date(START.getTime() + minutes * 60_000).toISOString()
/** `spotswap revert` for the group, as a run request. */
export const request = revertRequestEvent('us-east-1', START, 'web', laneOf('web', REGION_LANES))
export const writes = (cloud: FakeCloud): unknown[][] => cloud.mutations.map((c) => [c.method, ...c.args])
/** Members Auto Scaling launched come into service and serve. */
export const serveNewMembers = (cloud: FakeCloud): void => {
  for (const [id, state] of cloud.group('web').members)
    if (state === 'Pending') {
      cloud.group('web').members.set(id, 'InService')
      const instance = cloud.instances.get(id)
      if (instance !== undefined) instance.state = 'running'
    }
}
