/**
 * The kill switch's SSM parameter (lambdas/core/region/kill-switch.ts): created `off` by the stack; an
 * operator sets it `on` or `hard` with `aws ssm put-parameter --overwrite`, and both Lambdas read it once
 * per invocation. Its value is the operator's: a later deploy does not put it back (CloudFormation updates
 * a parameter only when its template properties change).
 */
import { Arn, Stack } from 'aws-cdk-lib'
import { ParameterTier, StringParameter } from 'aws-cdk-lib/aws-ssm'
import type { Construct } from 'constructs'
import type { Grant } from './grant.ts'

/** The parameter's default name. */
export const DEFAULT_KILL_SWITCH_PARAMETER = '/spotswap/kill-switch'

/** SSM parameter names: letters, digits and `.-_/`, a leading `/` for a hierarchy (API_PutParameter). */
const PARAMETER_NAME = /^\/?[A-Za-z0-9_.\-/]{1,1000}$/

export const validateKillSwitchName = (name: string): void => {
  if (!PARAMETER_NAME.test(name) || /^\/?(aws|ssm)/i.test(name))
    throw new Error(
      `killSwitchParameterName must be an SSM parameter name such as ${DEFAULT_KILL_SWITCH_PARAMETER} (got ${JSON.stringify(name)})`,
    )
}

export const createKillSwitchParameter = (scope: Construct, name: string): StringParameter =>
  new StringParameter(scope, 'KillSwitchParameter', {
    parameterName: name,
    stringValue: 'off',
    tier: ParameterTier.STANDARD,
    description:
      'spotswap kill switch: off (runs as usual), on (nothing new starts; cleanup and open swaps finish), hard (no write at all)',
  })

/** Read access to that one parameter: GetParameter, nothing else. */
export const killSwitchGrant = (scope: Construct, name: string): Grant => ({
  sid: 'ReadKillSwitch',
  actions: ['ssm:GetParameter'],
  resources: [
    Arn.format(
      { service: 'ssm', resource: 'parameter', resourceName: name.replace(/^\//, '') },
      Stack.of(scope),
    ),
  ],
})
