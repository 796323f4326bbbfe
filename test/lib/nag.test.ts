import { Validations } from 'aws-cdk-lib'
import { AwsSolutionsChecks } from 'cdk-nag'
import type { IConstruct } from 'constructs'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type BuiltApp, buildApp } from './support/app.ts'

/** Every optional part switched on, in two regions, so every resource spotswap can create is checked. */
const FULL = {
  'spotswap:regions': 'us-east-1,eu-west-1',
  'spotswap:notificationEmail': 'ops@example.com',
  'spotswap:rehearsalGroup': 'web',
}

const stacksOf = (built: BuiltApp) => [built.home, ...built.forwarders]

const findings = (built: BuiltApp) =>
  stacksOf(built).flatMap((stack) =>
    new AwsSolutionsChecks(built.app).validateScope(stack).violations.flatMap((violation) =>
      violation.violatingResources.map((resource) => ({
        rule: violation.ruleName,
        path: resource.constructPath ?? '',
      })),
    ),
  )

interface Acknowledgement {
  readonly path: string
  readonly rule: string
  readonly reason: string
}

const acknowledgements = (root: IConstruct): Acknowledgement[] =>
  root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          rule: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  )

let full: BuiltApp
beforeAll(() => {
  full = buildApp({ context: FULL })
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unacknowledged in any stack', () => {
    expect(findings(full)).toEqual([])
  })

  it('finds nothing unacknowledged in opt-out mode either', () => {
    expect(findings(buildApp({ context: { ...FULL, TAG_FILTERING_MODE: 'opt-out' } }))).toEqual([])
  })

  it('has a specific reason for every acknowledgement', () => {
    for (const { rule, reason } of acknowledgements(full.app)) {
      expect(reason.length, rule).toBeGreaterThan(60)
    }
  })

  it('acknowledges only findings that exist, each on the construct that has it', () => {
    const acknowledged = acknowledgements(full.app)
    vi.spyOn(Validations.prototype, 'acknowledge').mockImplementation(() => undefined)
    const raw = findings(buildApp({ context: FULL }))
    expect(acknowledged.length).toBeGreaterThan(0)
    for (const ack of acknowledged) {
      const matching = raw.filter((f) => f.rule === ack.rule && f.path.startsWith(`${ack.path}/`))
      expect(matching, `${ack.rule} on ${ack.path}`).not.toEqual([])
    }
  })
})
