/** The summary says where a group's on-demand prices came from, and marks its savings estimated when not live. */
import { describe, expect, it } from 'vitest'
import { embeddedOnDemandPrices } from '../../lambdas/data/on-demand-prices.ts'
import { cloudWithFleet, harness } from './support.ts'

const windowsFleet = () => {
  const cloud = cloudWithFleet(2)
  for (const id of cloud.group('web').members.keys()) {
    const instance = cloud.instances.get(id)
    if (instance) instance.platform = 'Windows'
  }
  return cloud
}

describe('price source in the summary', () => {
  it('says a platform the Pricing API gave nothing for is priced from the embedded table, savings estimated', async () => {
    const cloud = windowsFleet()
    cloud.onDemand = embeddedOnDemandPrices('us-east-1', 'Windows')
    const summary = await harness({ 'us-east-1': cloud }).run()
    expect(summary.regions[0]?.groups?.[0]?.prices).toEqual({
      platform: 'Windows',
      source: 'embedded',
      savingsEstimated: true,
      note: "no Pricing API answer for Windows: on-demand prices are the embedded Windows table's (us-east-1, August 2023); savings are estimated",
    })
    expect(cloud.calls.filter((c) => c.method === 'onDemandPrices').map((c) => c.args)).toEqual([['Windows']])
  })

  it('marks savings exact when the prices came from the Pricing API', async () => {
    const cloud = windowsFleet()
    cloud.onDemand = { ...embeddedOnDemandPrices('us-east-1', 'Windows'), source: 'pricing-api' }
    const summary = await harness({ 'us-east-1': cloud }).run()
    expect(summary.regions[0]?.groups?.[0]?.prices).toEqual({
      platform: 'Windows',
      source: 'pricing-api',
      savingsEstimated: false,
    })
  })
})
