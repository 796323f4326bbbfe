/**
 * One IAM decision, offline, by @cloud-copilot/iam-simulate (a dev dependency: AGPL, never bundled into
 * a Lambda). Every context key a request names must be one IAM defines for that action and resource
 * (the evaluator's copy of the service authorization reference), so a table entry cannot pass by
 * naming a key AWS never sends.
 */
import { allowedContextKeysForRequest, runSimulation } from '@cloud-copilot/iam-simulate'
import { ACCOUNT, type PolicyDocument } from './template.ts'

export type Decision = 'Allowed' | 'ImplicitlyDenied' | 'ExplicitlyDenied'

export interface IamRequest {
  readonly action: string
  readonly resource: string
  readonly context?: Readonly<Record<string, string | readonly string[]>>
}

export interface Evaluation {
  /** An IAM role ARN, or a service principal such as `events.amazonaws.com`. */
  readonly principal: string
  readonly identityPolicy?: PolicyDocument
  readonly resourcePolicy?: PolicyDocument
  /** Service control policies applied above the account (FullAWSAccess is added). */
  readonly serviceControlPolicies?: readonly PolicyDocument[]
}

/** Global keys a request may carry whatever the action (the IAM global condition context keys). */
const GLOBAL_KEYS = new Set(['aws:principalarn', 'aws:sourcearn', 'aws:sourceaccount'])

const FULL_AWS_ACCESS: PolicyDocument = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }],
}

const keyPattern = (allowed: string): RegExp =>
  new RegExp(`^${allowed.replace(/[.*+?^()|[\]\\]/g, '\\$&').replace(/\$\{[^}]+\}/g, '.+')}$`)

const checkContextKeys = async (request: IamRequest): Promise<void> => {
  if (Object.keys(request.context ?? {}).length === 0) return
  const [service = '', action = ''] = request.action.split(':')
  const resource = request.resource === '*' ? '*' : request.resource
  const allowed = (await allowedContextKeysForRequest(service, action, resource, false, undefined)).map(
    keyPattern,
  )
  for (const key of Object.keys(request.context ?? {})) {
    const lower = key.toLowerCase()
    if (GLOBAL_KEYS.has(lower)) continue
    if (!allowed.some((pattern) => pattern.test(lower)))
      throw new Error(`${request.action} on ${request.resource} has no condition key ${key}`)
  }
}

export const evaluate = async (evaluation: Evaluation, request: IamRequest): Promise<Decision> => {
  await checkContextKeys(request)
  const isRole = evaluation.principal.startsWith('arn:')
  const response = await runSimulation(
    {
      identityPolicies: evaluation.identityPolicy
        ? [{ name: 'identity', policy: evaluation.identityPolicy }]
        : [],
      serviceControlPolicies: evaluation.serviceControlPolicies
        ? [
            {
              orgIdentifier: 'r-root',
              policies: [FULL_AWS_ACCESS, ...evaluation.serviceControlPolicies].map((policy, i) => ({
                name: `scp-${i}`,
                policy,
              })),
            },
          ]
        : [],
      resourceControlPolicies: [],
      resourcePolicy: evaluation.resourcePolicy,
      request: {
        principal: evaluation.principal,
        action: request.action,
        resource: { resource: request.resource, accountId: ACCOUNT },
        contextVariables: {
          ...(isRole ? { 'aws:PrincipalArn': evaluation.principal } : {}),
          ...(request.context as Record<string, string | string[]>),
        },
      },
    },
    {},
  )
  if (response.resultType === 'error')
    throw new Error(`cannot evaluate ${request.action}: ${JSON.stringify(response.errors)}`)
  return response.overallResult as Decision
}
