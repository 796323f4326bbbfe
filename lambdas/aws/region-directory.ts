/** Region discovery: the regions enabled for this account, asked once in the Lambda's own region. */
import type { RegionDirectory } from '../core/port.ts'
import { ec2Client, homeRegion } from './clients.ts'
import { type ApiCallListener, countedCall } from './context.ts'

export interface RegionDirectoryDeps {
  readonly onApiCall?: ApiCallListener
  /** Where DescribeRegions is asked; defaults to AWS_REGION, else us-east-1. */
  readonly homeRegion?: string
}

export const createRegionDirectory = (deps: RegionDirectoryDeps = {}): RegionDirectory => {
  const call = countedCall(deps.onApiCall)
  return {
    async enabledRegions() {
      const ec2 = await ec2Client(deps.homeRegion ?? homeRegion())
      const { DescribeRegionsCommand } = await import('@aws-sdk/client-ec2')
      // AllRegions false lists only the regions this account has enabled (opted in or on by default).
      const response = await call('ec2:DescribeRegions', () =>
        ec2.send(new DescribeRegionsCommand({ AllRegions: false })),
      )
      return (response.Regions ?? []).flatMap((r) => (r.RegionName ? [r.RegionName] : [])).sort()
    },
  }
}
