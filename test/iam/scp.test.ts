/**
 * The Service Control Policy SECURITY.md recommends, read from SECURITY.md itself and evaluated offline:
 * spotswap's tag keys are reserved to its two roles (as CloudFormation names them) and the named owners.
 */
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../lib/support/app.ts'
import { GROUP, INSTANCE, ROLE, requestTags } from './requests.ts'
import { evaluate, type IamRequest } from './support/evaluate.ts'
import { ACCOUNT, type PolicyDocument, REGION, ResolvedTemplate } from './support/template.ts'

const SECURITY_MD = new URL('../../SECURITY.md', import.meta.url)

const recommendedScp = (): PolicyDocument => {
  const text = readFileSync(SECURITY_MD, 'utf8')
  const match = /<!-- spotswap-scp -->\s*```json\n([\s\S]*?)```/.exec(text)
  if (match?.[1] === undefined) throw new Error('SECURITY.md has no SCP block after <!-- spotswap-scp -->')
  return JSON.parse(match[1]) as PolicyDocument
}

const ALLOW_ALL: PolicyDocument = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }],
}

let scp: PolicyDocument
let spotswapRoles: string[]
beforeAll(() => {
  scp = recommendedScp()
  const built = buildApp()
  const home = new ResolvedTemplate(built.homeTemplate, built.home.stackName)
  spotswapRoles = ['Replacer', 'InterruptionHandler'].map((fn) => home.arnOf(home.roleOfFunction(fn)))
})

/** Under the SCP, for a principal whose own policy allows everything: only the SCP can refuse. */
const under = (principal: string, request: IamRequest) =>
  evaluate({ principal, identityPolicy: ALLOW_ALL, serviceControlPolicies: [scp] }, request)

const tagging = (keys: readonly string[]): [string, IamRequest][] => {
  const tags = Object.fromEntries(keys.map((key) => [key, 'x']))
  return [
    ['ec2:CreateTags', { action: 'ec2:CreateTags', resource: INSTANCE, context: requestTags(tags) }],
    [
      'ec2:DeleteTags',
      { action: 'ec2:DeleteTags', resource: INSTANCE, context: { 'aws:TagKeys': [...keys] } },
    ],
    [
      'autoscaling:CreateOrUpdateTags',
      { action: 'autoscaling:CreateOrUpdateTags', resource: GROUP, context: requestTags(tags) },
    ],
    [
      'autoscaling:DeleteTags',
      { action: 'autoscaling:DeleteTags', resource: GROUP, context: { 'aws:TagKeys': [...keys] } },
    ],
    [
      'autoscaling:CreateAutoScalingGroup',
      { action: 'autoscaling:CreateAutoScalingGroup', resource: GROUP, context: requestTags(tags) },
    ],
    [
      'ec2:RunInstances',
      {
        action: 'ec2:RunInstances',
        resource: `arn:aws:ec2:${REGION}:${ACCOUNT}:instance/*`,
        context: requestTags(tags),
      },
    ],
    ['iam:TagRole', { action: 'iam:TagRole', resource: ROLE('admin'), context: requestTags(tags) }],
  ]
}

const RESERVED: readonly (readonly string[])[] = [
  ['spot-enabled'],
  ['autospotting_min_on_demand_number'],
  ['spotswap:swap'],
  ['launched-for-asg'],
  ['launched-by-autospotting', 'Name'],
]

describe('the recommended SCP', () => {
  describe.each(RESERVED.map((keys) => [keys.join(', '), keys] as const))(
    'with the keys %s',
    (_label, keys) => {
      it.each(tagging(keys))('refuses %s to anyone else', async (_action, request) => {
        expect(await under(ROLE('developer'), request)).toBe('ExplicitlyDenied')
      })

      it.each(tagging(keys))(
        'allows %s to spotswap’s roles and the named owner',
        async (_action, request) => {
          for (const principal of [...spotswapRoles, ROLE('spotswap-tag-owner')])
            expect(await under(principal, request), principal).toBe('Allowed')
        },
      )
    },
  )

  it.each(tagging(['Name', 'team', 'launchedBy']))(
    'leaves other tag keys alone (%s)',
    async (_action, request) => {
      expect(await under(ROLE('developer'), request)).toBe('Allowed')
    },
  )

  it('names spotswap’s roles as CloudFormation names them in the SpotSwap stack', () => {
    expect(spotswapRoles).toEqual([
      expect.stringMatching(/:role\/SpotSwap-SpotSwapReplacerRole/),
      expect.stringMatching(/:role\/SpotSwap-SpotSwapInterruptionHandlerRole/),
    ])
  })
})
