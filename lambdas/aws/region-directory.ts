/** Region discovery: the regions enabled for this account, asked once in the Lambda's own region. */
import type { RegionDirectory } from '../core/port.ts'
import { type ApiCallListener, countedCall } from './context.ts'

export interface RegionDirectoryDeps {
  readonly onApiCall?: ApiCallListener
  /** Where DescribeRegions is asked; defaults to AWS_REGION, else us-east-1. */
  readonly homeRegion?: string
}

/** The region DescribeRegions is asked in: the Lambda's own, else us-east-1. */
const homeRegion = (env: Readonly<Record<string, string | undefined>> = process.env): string =>
  env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1'

export const createRegionDirectory = (deps: RegionDirectoryDeps = {}): RegionDirectory => {
  const call = countedCall(deps.onApiCall)
  return {
    async enabledRegions() {
      // Imported here, as cloud.ts does, so the simulator (which has its own directory) never loads the
      // SDK; the Lambdas have loaded this module at init already (default-deps.ts).
      const { describeRegions } = await import('./sdk-clients.ts')
      // AllRegions false lists only the regions this account has enabled (opted in or on by default).
      const response = await call('ec2:DescribeRegions', () =>
        describeRegions(deps.homeRegion ?? homeRegion(), { AllRegions: false }),
      )
      return (response.Regions ?? []).flatMap((r) => (r.RegionName ? [r.RegionName] : [])).sort()
    },
  }
}
