import { describe, expect, it } from 'vitest'
import { MUST_BE_DENIED, rolesDeniedCheck } from '../../tools/cli/verify-roles.ts'
import { type FakeAccount, fakeAccount, fakePreflightClients, REPLACER_ROLE } from './plan-preflight-fakes.ts'

const INTERRUPTION_ROLE = {
  name: 'SpotSwap-SpotSwapInterruptionHandlerRoleCD34-XYZ',
  arn: 'arn:aws:iam::123456789012:role/SpotSwap-SpotSwapInterruptionHandlerRoleCD34-XYZ',
  tags: {},
}

const deployed = (decide: FakeAccount['passRole'], overrides: Partial<FakeAccount> = {}) =>
  fakeAccount({
    stacks: new Map([
      [
        'SpotSwap',
        [
          { logical: 'SpotSwapReplacerRoleAB12', type: 'AWS::IAM::Role', physical: REPLACER_ROLE.name },
          {
            logical: 'SpotSwapInterruptionHandlerRoleCD34',
            type: 'AWS::IAM::Role',
            physical: INTERRUPTION_ROLE.name,
          },
        ],
      ],
    ]),
    roles: new Map([
      [REPLACER_ROLE.name, REPLACER_ROLE],
      [INTERRUPTION_ROLE.name, INTERRUPTION_ROLE],
    ]),
    passRole: decide,
    ...overrides,
  })

describe('rolesDeniedCheck', () => {
  it('passes when the simulator refuses every request to both deployed roles, and only simulates', async () => {
    const calls: string[] = []
    const check = await rolesDeniedCheck(
      fakePreflightClients(
        deployed(() => 'implicitDeny'),
        calls,
      )('us-east-1'),
      'us-east-1',
    )
    expect(check).toEqual({
      name: 'roles-denied',
      status: 'pass',
      reason: `2 role(s) × ${MUST_BE_DENIED.length} requests refused by the policy simulator`,
    })
    expect(calls.filter((c) => c === 'iam:SimulatePrincipalPolicy')).toHaveLength(2 * MUST_BE_DENIED.length)
    expect(new Set(calls)).toEqual(
      new Set(['cloudformation:DescribeStackResources', 'iam:GetRole', 'iam:SimulatePrincipalPolicy']),
    )
  })

  it('fails naming the role and the request a role is allowed', async () => {
    // A policy that forgot the no-group condition: the interruption handler may terminate members with EC2.
    const leaky: FakeAccount['passRole'] = (principal, resource, context) =>
      principal === INTERRUPTION_ROLE.arn &&
      resource.includes(':instance/') &&
      context['aws:ResourceTag/aws:autoscaling:groupName'] !== undefined
        ? 'allowed'
        : 'implicitDeny'
    const check = await rolesDeniedCheck(fakePreflightClients(deployed(leaky))('us-east-1'), 'us-east-1')
    expect(check.status).toBe('fail')
    expect(check.reason).toBe(
      `${INTERRUPTION_ROLE.name} may terminate a group member with EC2 (members leave through Auto Scaling) (ec2:TerminateInstances)`,
    )
  })

  it('asks about this account and region', async () => {
    const resources: string[] = []
    const record: FakeAccount['passRole'] = (_principal, resource) => {
      resources.push(resource)
      return 'implicitDeny'
    }
    await rolesDeniedCheck(fakePreflightClients(deployed(record))('eu-west-1'), 'eu-west-1')
    expect(resources).toContain('arn:aws:ec2:eu-west-1:123456789012:instance/i-0123456789abcdef0')
  })

  it('is skipped, saying so, when no SpotSwap stack is deployed', async () => {
    const check = await rolesDeniedCheck(
      fakePreflightClients(fakeAccount({ stacks: new Map() }))('us-east-1'),
      'us-east-1',
    )
    expect(check).toMatchObject({
      status: 'skipped',
      reason: 'skipped: no deployed roles (no SpotSwap stack found)',
    })
  })

  it('is not possible, naming the permission, when the simulator cannot be asked', async () => {
    const account = deployed(() => 'implicitDeny', { denied: new Set(['iam:SimulatePrincipalPolicy']) })
    const check = await rolesDeniedCheck(fakePreflightClients(account)('us-east-1'), 'us-east-1')
    expect(check.status).toBe('not-possible')
    expect(check.reason).toMatch(/needs .*iam:SimulatePrincipalPolicy \(AccessDenied: /)
  })
})
