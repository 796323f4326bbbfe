/**
 * Turns the synthesized templates into the policy documents AWS would hold after deployment: every
 * intrinsic function resolved to a concrete value in account 123456789012, us-east-1, with the physical
 * names CloudFormation would generate, so an offline IAM evaluator can read them.
 */
import type { Template } from 'aws-cdk-lib/assertions'

export const ACCOUNT = '123456789012'
export const REGION = 'us-east-1'

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>

export interface PolicyDocument {
  readonly Version: string
  readonly Statement: Record<string, unknown>[]
}

/** The name CloudFormation gives a resource without one: `<stack>-<logical id>-<suffix>`, at most 64. */
export const generatedName = (stackName: string, logicalId: string): string =>
  `${`${stackName}-${logicalId}`.slice(0, 51)}-A1B2C3D4E5F6`

export class ResolvedTemplate {
  private readonly resources: Resources

  constructor(
    template: Template,
    private readonly stackName: string,
  ) {
    this.resources = template.toJSON().Resources as Resources
  }

  private nameOf(logicalId: string, property: string): string {
    const given = this.resources[logicalId]?.Properties?.[property]
    return typeof given === 'string' ? given : generatedName(this.stackName, logicalId)
  }

  /** The ARN `Fn::GetAtt [logicalId, Arn]` resolves to. */
  arnOf(logicalId: string): string {
    const type = this.resources[logicalId]?.Type
    switch (type) {
      case 'AWS::IAM::Role':
        return `arn:aws:iam::${ACCOUNT}:role/${this.nameOf(logicalId, 'RoleName')}`
      case 'AWS::SQS::Queue': {
        const fifo = this.resources[logicalId]?.Properties?.FifoQueue === true ? '.fifo' : ''
        const name = this.resources[logicalId]?.Properties?.QueueName
        return `arn:aws:sqs:${REGION}:${ACCOUNT}:${typeof name === 'string' ? name : `${generatedName(this.stackName, logicalId)}${fifo}`}`
      }
      case 'AWS::Events::Rule':
        return `arn:aws:events:${REGION}:${ACCOUNT}:rule/${this.nameOf(logicalId, 'Name')}`
      case 'AWS::Logs::LogGroup':
        return `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${this.nameOf(logicalId, 'LogGroupName')}:*`
      case 'AWS::KMS::Key':
        return `arn:aws:kms:${REGION}:${ACCOUNT}:key/${generatedName(this.stackName, logicalId)}`
      case 'AWS::Lambda::Function':
        return `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${this.nameOf(logicalId, 'FunctionName')}`
      default:
        throw new Error(`no ARN rendering for ${logicalId} (${type})`)
    }
  }

  resolve(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.resolve(item))
    if (value === null || typeof value !== 'object') return value
    const object = value as Record<string, unknown>
    if ('Ref' in object) {
      const ref = object.Ref as string
      const pseudo: Record<string, string> = {
        'AWS::AccountId': ACCOUNT,
        'AWS::Partition': 'aws',
        'AWS::Region': REGION,
      }
      return pseudo[ref] ?? this.nameOf(ref, 'Name')
    }
    if ('Fn::GetAtt' in object) {
      const [logicalId, attribute] = object['Fn::GetAtt'] as [string, string]
      if (attribute !== 'Arn') throw new Error(`cannot resolve ${logicalId}.${attribute}`)
      return this.arnOf(logicalId)
    }
    if ('Fn::Join' in object) {
      const [separator, parts] = object['Fn::Join'] as [string, unknown[]]
      return parts.map((part) => String(this.resolve(part))).join(separator)
    }
    return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, this.resolve(item)]))
  }

  logicalIdOf(type: string, idPart: string): string {
    const ids = Object.entries(this.resources)
      .filter(([id, resource]) => resource.Type === type && id.includes(idPart))
      .map(([id]) => id)
    if (ids.length !== 1) throw new Error(`expected one ${type} matching ${idPart}, found ${ids.length}`)
    return ids[0] as string
  }

  /** Every statement of every policy attached to the role (its inline policies included), resolved. */
  identityPolicyOf(roleLogicalId: string): PolicyDocument {
    const attached = Object.values(this.resources).filter(
      (resource) =>
        resource.Type === 'AWS::IAM::Policy' &&
        ((resource.Properties?.Roles ?? []) as unknown[]).some(
          (role) => (role as { Ref?: string }).Ref === roleLogicalId,
        ),
    )
    const inline = (this.resources[roleLogicalId]?.Properties?.Policies ?? []) as {
      PolicyDocument: PolicyDocument
    }[]
    const statements = [
      ...attached.map((policy) => policy.Properties?.PolicyDocument as PolicyDocument),
      ...inline.map((policy) => policy.PolicyDocument),
    ].flatMap((document) => document.Statement)
    return { Version: '2012-10-17', Statement: this.resolve(statements) as Record<string, unknown>[] }
  }

  trustPolicyOf(roleLogicalId: string): PolicyDocument {
    return this.resolve(this.resources[roleLogicalId]?.Properties?.AssumeRolePolicyDocument) as PolicyDocument
  }

  /** The queue policy of the queue with this logical id (every AWS::SQS::QueuePolicy naming it, merged). */
  queuePolicyOf(queueLogicalId: string): PolicyDocument {
    const statements = Object.values(this.resources)
      .filter(
        (resource) =>
          resource.Type === 'AWS::SQS::QueuePolicy' &&
          ((resource.Properties?.Queues ?? []) as { Ref?: string }[]).some(
            (queue) => queue.Ref === queueLogicalId,
          ),
      )
      .flatMap((policy) => (policy.Properties?.PolicyDocument as PolicyDocument | undefined)?.Statement ?? [])
    return { Version: '2012-10-17', Statement: this.resolve(statements) as Record<string, unknown>[] }
  }

  /** A KMS key's own policy, resolved. */
  keyPolicyOf(keyLogicalId: string): PolicyDocument {
    const policy = this.resources[keyLogicalId]?.Properties?.KeyPolicy as PolicyDocument | undefined
    return {
      Version: '2012-10-17',
      Statement: this.resolve(policy?.Statement ?? []) as Record<string, unknown>[],
    }
  }

  roleOfFunction(functionIdPart: string): string {
    const fn = this.resources[this.logicalIdOf('AWS::Lambda::Function', functionIdPart)]
    const role = fn?.Properties?.Role as { 'Fn::GetAtt': [string, string] } | undefined
    if (role === undefined) throw new Error(`function ${functionIdPart} has no role`)
    return role['Fn::GetAtt'][0]
  }
}
