import { Match, type Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { type BuiltApp, buildApp } from './support/app.ts'
import { allowing, roleOfFunction, statementsOfRole } from './support/iam.ts'

let built: BuiltApp
let template: Template
beforeAll(() => {
  built = buildApp({ context: { 'spotswap:regions': 'us-east-1' } })
  template = built.homeTemplate
})

interface KeyStatement {
  readonly Sid: string
  readonly Principal: { readonly AWS: unknown }
  readonly Action: string | string[]
  readonly Condition?: unknown
}

const keyStatements = (): KeyStatement[] => {
  const keys = Object.values(template.findResources('AWS::KMS::Key'))
  expect(keys).toHaveLength(1)
  return (keys[0] as { Properties: { KeyPolicy: { Statement: KeyStatement[] } } }).Properties.KeyPolicy
    .Statement
}
const actionsOf = (s: KeyStatement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action])

describe('the marker key', () => {
  it('is an HMAC_256 key for MACs, kept when the stack goes', () => {
    template.hasResource('AWS::KMS::Key', {
      Properties: Match.objectLike({ KeySpec: 'HMAC_256', KeyUsage: 'GENERATE_VERIFY_MAC' }),
      DeletionPolicy: 'Retain',
    })
  })

  it('lets the account manage it but never MAC with it, decrypt with it nor grant it', () => {
    const account = keyStatements().filter((s) => JSON.stringify(s.Principal).includes(':root'))
    expect(account).toHaveLength(1)
    const actions = account.flatMap(actionsOf)
    expect(actions).toContain('kms:ScheduleKeyDeletion')
    for (const refused of [
      'kms:*',
      'kms:GenerateMac',
      'kms:VerifyMac',
      'kms:CreateGrant',
      'kms:Create*',
      'kms:Decrypt',
    ])
      expect(actions).not.toContain(refused)
  })

  it('lets only the two Lambdas’ roles GenerateMac and VerifyMac, with HMAC_SHA_256', () => {
    const use = keyStatements().filter((s) => actionsOf(s).includes('kms:GenerateMac'))
    expect(use).toHaveLength(1)
    expect(actionsOf(use[0] as KeyStatement).sort()).toEqual(['kms:GenerateMac', 'kms:VerifyMac'])
    expect(use[0]?.Condition).toEqual({ StringEquals: { 'kms:MacAlgorithm': 'HMAC_SHA_256' } })
    const principals = JSON.stringify(use[0]?.Principal)
    for (const fn of ['Replacer', 'InterruptionHandler'])
      expect(principals).toContain(roleOfFunction(template, fn))
  })

  it.each(['Replacer', 'InterruptionHandler'])(
    'is named to the %s by MARKER_KEY_ARN, and its role may use it',
    (fn) => {
      const functions = template.findResources('AWS::Lambda::Function', {
        Properties: { Environment: { Variables: { MARKER_KEY_ARN: Match.anyValue() } } },
      })
      expect(Object.keys(functions).some((id) => id.includes(fn))).toBe(true)
      const statements = statementsOfRole(template, roleOfFunction(template, fn))
      for (const action of ['kms:GenerateMac', 'kms:VerifyMac'])
        expect(allowing(statements, action).map((s) => s.Condition)).toEqual([
          { StringEquals: { 'kms:MacAlgorithm': 'HMAC_SHA_256' } },
        ])
    },
  )
})
