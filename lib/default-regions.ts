/**
 * The regions spotswap covers by default: the commercial regions every AWS account has enabled.
 * Opt-in regions (af-south-1, ap-east-1, eu-south-1, me-south-1, ...) are left out on purpose: a stack
 * cannot be deployed to a region the account has not enabled, so defaulting to them would make the
 * first `cdk deploy` fail. Users add the opt-in regions they enabled with `-c spotswap:regions=...`.
 */
export const DEFAULT_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'ca-central-1',
  'sa-east-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-central-1',
  'eu-north-1',
  'ap-south-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-southeast-2',
] as const

/** A concrete region name such as `eu-west-1` or `ap-southeast-4` (not a glob: stacks need real regions). */
export const isRegionName = (value: string): boolean => /^[a-z]{2}(-[a-z]+)+-\d+$/.test(value)
