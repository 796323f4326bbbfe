/**
 * The fake accounts the corpus runs against. Real catalogue and prices (us-east-1, Linux), so a bad
 * setting has real consequences: a deny list of everything really leaves no candidate.
 *
 * - `web`: 3 on-demand m5.large, MinSize 1, MaxSize 3 (a swap must raise MaxSize: the riskiest path),
 *   managed (`spot-enabled=true`), plus whatever tags the test puts on it.
 * - `batch`: an unmanaged group carrying the same tags, one on-demand and one spot member; never touched.
 * - a standalone on-demand instance in no group; never to be touched.
 * - `fleet`: a converted group, 3 spot members with fixed ids (FLEET_IDS) that events can name.
 */
import { TAG_LAUNCHED_BY } from '../../../lambdas/core/constants.ts'
import type { SpotPrice } from '../../../lambdas/core/types.ts'
import { embeddedOnDemandPrices } from '../../../lambdas/data/on-demand-prices.ts'
import { embeddedCatalog } from '../../../tools/data/catalog.ts'
import { NOW as PRICES_AT, realSpotPools } from '../../builders/world.ts'
import { FakeCloud } from '../../fakes/fake-cloud.ts'

/** A Thursday, 00:00 UTC: cron windows in the corpus are written against it. FakeCloud launches at this time too. */
export const START = new Date('2026-01-01T00:00:00Z')

export const MANAGED = 'web'
export const UNMANAGED = 'batch'
export const CONVERTED = 'fleet'
export const FLEET_IDS = ['i-0c0ffee0000000001', 'i-0c0ffee0000000002', 'i-0c0ffee0000000003'] as const
/** Fixed ids, so events in the corpus can name them. */
export const WEB_IDS = ['i-0abcdef0000000001', 'i-0abcdef0000000002', 'i-0abcdef0000000003'] as const
export const BATCH_IDS = ['i-0ba7c400000000001', 'i-0ba7c400000000002'] as const
export const STANDALONE_ID = 'i-05a1d000000000001'

/** us-east-1's real spot prices; another region gets the same prices in its own zones (a, b, ...). */
const priceRows = (region: string): SpotPrice[] =>
  [...realSpotPools()].map(([pool, priceUsd]) => {
    const [instanceType, zone] = pool.split('/') as [string, string]
    return {
      instanceType,
      zone: zone.replace('us-east-1', region),
      priceUsd,
      productDescription: 'Linux/UNIX',
      timestamp: PRICES_AT,
    }
  })

export interface World {
  readonly cloud: FakeCloud
  /** Group names and instance ids of every group but `web`: no call may name them. */
  readonly untouchable: readonly string[]
}

export const buildWorld = (region = 'us-east-1', groupTags: Readonly<Record<string, string>> = {}): World => {
  const cloud = new FakeCloud(region)
  cloud.catalog = embeddedCatalog()
  cloud.spotPrices = priceRows(region)
  cloud.onDemand = embeddedOnDemandPrices('us-east-1', 'Linux/UNIX')
  cloud.addGroup(MANAGED, {
    minSize: 1,
    maxSize: 3,
    tags: { 'spot-enabled': 'true', ...groupTags },
  })
  WEB_IDS.forEach((id, i) => {
    cloud.addInstance({
      id,
      group: MANAGED,
      zone: i % 2 ? `${region}b` : `${region}d`,
      launchTime: new Date(START.getTime() - (100 - i) * 60_000),
    })
  })
  cloud.addGroup(UNMANAGED, { minSize: 0, maxSize: 2, tags: { team: 'data', ...groupTags } })
  BATCH_IDS.forEach((id, i) => {
    cloud.addInstance({ id, group: UNMANAGED, zone: `${region}b`, lifecycle: i ? 'spot' : 'on-demand' })
  })
  cloud.addInstance({ id: STANDALONE_ID, zone: `${region}b` })

  cloud.addGroup(CONVERTED, { minSize: 1, maxSize: 6, tags: { 'spot-enabled': 'true' } })
  FLEET_IDS.forEach((id, index) => {
    cloud.addInstance({
      id,
      group: CONVERTED,
      lifecycle: 'spot',
      type: index % 2 === 0 ? 'm5a.large' : 'm6i.large',
      zone: `${region}${'bd'[index % 2]}`,
      // As spotswap leaves members once their swap closed: membership recorded, launch tags gone.
      tags: {
        [TAG_LAUNCHED_BY]: 'true',
        'spotswap:joined-group': CONVERTED,
        'spotswap:replaced-instance-type': 'm5.large',
      },
    })
  })
  cloud.calls.length = 0
  return { cloud, untouchable: [UNMANAGED, ...BATCH_IDS, STANDALONE_ID, CONVERTED, ...FLEET_IDS] }
}

/** InService members of a group, split by lifecycle. */
export const membersOf = (cloud: FakeCloud, group: string) => {
  const ids = [...cloud.group(group).members].filter(([, state]) => state === 'InService').map(([id]) => id)
  const lifecycle = (id: string) => cloud.instances.get(id)?.lifecycle
  return {
    inService: ids.length,
    spot: ids.filter((id) => lifecycle(id) === 'spot').length,
    onDemand: ids.filter((id) => lifecycle(id) === 'on-demand').length,
  }
}
