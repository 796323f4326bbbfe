/** A FakeCloud with a converted group whose first member EC2 warned of its interruption. */
import { TAG_INTERRUPTION_WARNED } from '../../lambdas/core/constants.ts'
import type { SpotPrice } from '../../lambdas/core/types.ts'
import { embeddedOnDemandPrices } from '../../lambdas/data/on-demand-prices.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { FakeCloud } from '../fakes/fake-cloud.ts'
import { NOW, realSpotPools } from './world.ts'

/**
 * Group `web` of two spot members in us-east-1 (desired 2, MaxSize `maxSize`), the first warned at `warnedAt`:
 * its Spot request is marked-for-termination, which is what the replacer believes.
 */
export const convertedWithDoomedMember = (warnedAt: Date, maxSize = 2) => {
  const cloud = new FakeCloud('us-east-1')
  cloud.catalog = embeddedCatalog()
  cloud.spotPrices = [...realSpotPools()].map(([pool, priceUsd]): SpotPrice => {
    const [instanceType, zone] = pool.split('/') as [string, string]
    return { instanceType, zone, priceUsd, productDescription: 'Linux/UNIX', timestamp: NOW }
  })
  cloud.onDemand = embeddedOnDemandPrices('us-east-1', 'Linux/UNIX')
  cloud.addGroup('web', { maxSize, minSize: 1, healthCheckGracePeriodSeconds: 300 })
  const members = ['us-east-1b', 'us-east-1d'].map((zone, index) =>
    cloud.addInstance({
      group: 'web',
      lifecycle: 'spot',
      type: 'm5a.large',
      zone,
      launchTime: new Date(warnedAt.getTime() - 600 * 60_000),
      tags: {
        'spotswap:replaced-instance-type': 'm5.large',
        ...(index === 0 ? { [TAG_INTERRUPTION_WARNED]: warnedAt.toISOString() } : {}),
      },
    }),
  )
  const [doomed, other] = members as [(typeof members)[number], (typeof members)[number]]
  cloud.interruptionWarned.add(doomed.id)
  return { cloud, doomed: doomed.id, other: other.id }
}
