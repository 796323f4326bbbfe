/**
 * Reads IAM statements out of a synthesized template in a form tests can compare: intrinsic functions
 * are rendered as strings (`arn:aws:ec2:*:123456789012:instance/*`, `<FanoutQueue.Arn>`).
 */
import type { Template } from 'aws-cdk-lib/assertions'

export interface Statement {
  readonly Sid?: string
  readonly Effect: string
  readonly Action: string[]
  readonly Resource: string[]
  readonly Condition?: Record<string, Record<string, string | string[]>>
}

const PSEUDO: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::AccountId': '123456789012',
  'AWS::Region': 'us-east-1',
}

export const render = (value: unknown): string => {
  if (typeof value === 'string') return value
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>
    if ('Ref' in object) return PSEUDO[object.Ref as string] ?? `<${object.Ref}>`
    if ('Fn::GetAtt' in object) return `<${(object['Fn::GetAtt'] as string[]).join('.')}>`
    if ('Fn::Join' in object) {
      const [separator, parts] = object['Fn::Join'] as [string, unknown[]]
      return parts.map(render).join(separator)
    }
  }
  return JSON.stringify(value)
}

const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value]

const normalize = (raw: Record<string, unknown>): Statement => ({
  ...(raw.Sid ? { Sid: raw.Sid as string } : {}),
  Effect: raw.Effect as string,
  Action: asList(raw.Action as string | string[]),
  Resource: asList(raw.Resource).map(render),
  ...(raw.Condition ? { Condition: raw.Condition as Statement['Condition'] } : {}),
})

/** Every statement of every policy attached to the role with this logical id (inline ones included). */
export const statementsOfRole = (template: Template, roleLogicalId: string): Statement[] => {
  const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((policy) =>
    (policy.Properties.Roles as unknown[]).some((role) => render(role) === `<${roleLogicalId}>`),
  )
  const role = template.findResources('AWS::IAM::Role')[roleLogicalId]
  const inline = (role?.Properties.Policies ?? []) as { PolicyDocument: { Statement: unknown[] } }[]
  return [
    ...policies.map((p) => p.Properties.PolicyDocument),
    ...inline.map((p) => p.PolicyDocument),
  ].flatMap((document: { Statement: Record<string, unknown>[] }) => document.Statement.map(normalize))
}

/** Every statement in the template, from policies and inline role policies alike. */
export const allStatements = (template: Template): Statement[] =>
  Object.keys(template.findResources('AWS::IAM::Role')).flatMap((id) => statementsOfRole(template, id))

export const allowing = (statements: readonly Statement[], action: string): Statement[] =>
  statements.filter((s) => s.Effect === 'Allow' && s.Action.includes(action))

export const roleOfFunction = (template: Template, functionIdPart: string): string => {
  const [, fn] = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) =>
    id.includes(functionIdPart),
  ) ?? [undefined, undefined]
  if (fn === undefined) throw new Error(`no function matching ${functionIdPart}`)
  return render(fn.Properties.Role).replace(/^<|\.Arn>$/g, '')
}
