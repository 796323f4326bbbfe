/**
 * What spotswap's resource and trust policies accept, evaluated offline: queues take messages only from
 * spotswap's roles and rules, service roles trust only this account, and the passable-role choice is
 * what the operator configured.
 */
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../lib/support/app.ts'
import { ROLE } from './requests.ts'
import { evaluate } from './support/evaluate.ts'
import { ACCOUNT, type PolicyDocument, REGION, ResolvedTemplate } from './support/template.ts'

const OUTSIDER = ROLE('ci-deployer')
/** An outsider whose own policy allows everything on SQS: only the queue policy can stop it. */
const SQS_ADMIN: PolicyDocument = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: 'sqs:*', Resource: '*' }],
}
const FOREIGN_RULE = `arn:aws:events:${REGION}:999999999999:rule/spotswap-spot-interruption-warning`

let home: ResolvedTemplate
let forwarder: ResolvedTemplate
beforeAll(() => {
  const built = buildApp({
    context: { 'spotswap:regions': 'us-east-1,eu-west-1', 'spotswap:rehearsalGroup': 'web' },
  })
  home = new ResolvedTemplate(built.homeTemplate, built.home.stackName)
  const [stack] = built.forwarders
  if (stack === undefined) throw new Error('no forwarder stack')
  forwarder = new ResolvedTemplate(Template.fromStack(stack), stack.stackName)
})

const sendAs = async (
  template: ResolvedTemplate,
  queueIdPart: string,
  principal: string,
  sourceArn?: string,
) => {
  const queueId = template.logicalIdOf('AWS::SQS::Queue', queueIdPart)
  return evaluate(
    {
      principal,
      ...(principal.startsWith('arn:') ? { identityPolicy: SQS_ADMIN } : {}),
      resourcePolicy: template.queuePolicyOf(queueId),
    },
    {
      action: 'sqs:SendMessage',
      resource: template.arnOf(queueId),
      ...(sourceArn ? { context: { 'aws:SourceArn': sourceArn } } : {}),
    },
  )
}

describe('the queue policies', () => {
  it.each(['FanoutQueue', 'FanoutDeadLetterQueue', 'RunRequestQueue', 'DeadlineQueue', 'FailedEvents'])(
    'refuse messages to %s from a role of the account that is not spotswap’s, whatever its own policy',
    async (queue) => {
      expect(await sendAs(home, queue, OUTSIDER)).toBe('ExplicitlyDenied')
    },
  )

  it('take dead letters from spotswap’s own rules, not from a rule of another account', async () => {
    const schedule = home.arnOf(home.logicalIdOf('AWS::Events::Rule', 'Schedule'))
    expect(await sendAs(home, 'FailedEvents', 'events.amazonaws.com', schedule)).toBe('Allowed')
    expect(await sendAs(home, 'FailedEvents', 'events.amazonaws.com', FOREIGN_RULE)).not.toBe('Allowed')
  })

  it('in a forwarding region, take undelivered events only from the forwarding rules', async () => {
    const rule = forwarder.arnOf(forwarder.logicalIdOf('AWS::Events::Rule', 'spotinterruption'))
    expect(await sendAs(forwarder, 'UndeliveredEvents', 'events.amazonaws.com', rule)).toBe('Allowed')
    expect(await sendAs(forwarder, 'UndeliveredEvents', 'events.amazonaws.com', FOREIGN_RULE)).not.toBe(
      'Allowed',
    )
    expect(await sendAs(forwarder, 'UndeliveredEvents', OUTSIDER)).toBe('ExplicitlyDenied')
  })
})

describe('the service roles', () => {
  const assume = (template: ResolvedTemplate, roleIdPart: string, service: string, account: string) => {
    const roleId = template.logicalIdOf('AWS::IAM::Role', roleIdPart)
    return evaluate(
      { principal: service, resourcePolicy: template.trustPolicyOf(roleId) },
      {
        action: 'sts:AssumeRole',
        resource: template.arnOf(roleId),
        context: { 'aws:SourceAccount': account },
      },
    )
  }

  it.each([
    ['the forwarding role', () => forwarder, 'ForwardingRole', 'events.amazonaws.com'],
    ['the rehearsal role', () => home, 'RehearsalRole', 'fis.amazonaws.com'],
  ] as const)(
    '%s trusts its service only on behalf of this account',
    async (_name, template, role, service) => {
      expect(await assume(template(), role, service, ACCOUNT)).toBe('Allowed')
      expect(await assume(template(), role, service, '999999999999')).not.toBe('Allowed')
    },
  )
})

describe('the roles the replacer may pass', () => {
  const passAs = async (context: Record<string, string>, role: string, roleTags: Record<string, string>) => {
    const built = buildApp({ context })
    const template = new ResolvedTemplate(built.homeTemplate, built.home.stackName)
    const replacerRole = template.roleOfFunction('Replacer')
    const tags = Object.fromEntries(
      Object.entries(roleTags).flatMap(([key, value]) => [
        [`iam:ResourceTag/${key}`, value],
        [`aws:ResourceTag/${key}`, value],
      ]),
    )
    return {
      built,
      decision: await evaluate(
        { principal: template.arnOf(replacerRole), identityPolicy: template.identityPolicyOf(replacerRole) },
        {
          action: 'iam:PassRole',
          resource: role,
          context: { 'iam:PassedToService': 'ec2.amazonaws.com', ...tags },
        },
      ),
    }
  }

  it('by default are the roles tagged spotswap:passable=true, without a warning', async () => {
    const marked = await passAs({}, ROLE('web-instance'), { 'spotswap:passable': 'true' })
    expect(marked.decision).toBe('Allowed')
    expect((await passAs({}, ROLE('admin'), {})).decision).not.toBe('Allowed')
    Annotations.fromStack(marked.built.home).hasNoWarning('*', Match.stringLikeRegexp('ANY IAM role'))
  })

  it('can be another tag', async () => {
    const context = { 'spotswap:passableRoles': 'tag:team=web' }
    expect((await passAs(context, ROLE('web-instance'), { team: 'web' })).decision).toBe('Allowed')
    expect((await passAs(context, ROLE('web-instance'), { 'spotswap:passable': 'true' })).decision).not.toBe(
      'Allowed',
    )
  })

  it('can be the roles under an IAM path', async () => {
    const context = { 'spotswap:passableRoles': 'path:/instances/' }
    expect((await passAs(context, ROLE('instances/web'), {})).decision).toBe('Allowed')
    expect((await passAs(context, ROLE('admin'), {})).decision).not.toBe('Allowed')
  })

  it('can be every role, and then synth warns', async () => {
    const any = await passAs({ 'spotswap:passableRoles': 'any' }, ROLE('admin'), {})
    expect(any.decision).toBe('Allowed')
    Annotations.fromStack(any.built.home).hasWarning('*', Match.stringLikeRegexp('ANY IAM role'))
  })

  it.each(['tag:spotswap:passable', 'tag:k=v*', 'path:instances', 'everything'])(
    'refuses the setting %s with a clear error',
    (setting) => {
      expect(() => buildApp({ context: { 'spotswap:passableRoles': setting } })).toThrow(
        /spotswap:passableRoles.*passable roles/,
      )
    },
  )
})
