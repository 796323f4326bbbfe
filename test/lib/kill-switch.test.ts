/** The kill switch in the stack: an SSM parameter created `off`, named to both Lambdas, on the dashboard. */
import { Match } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildApp, resourceOf } from './support/app.ts'
import { render } from './support/iam.ts'

const lambdaVariables = (template: ReturnType<typeof buildApp>['homeTemplate'], id: string) =>
  (
    resourceOf(template, 'AWS::Lambda::Function', id).properties.Environment as {
      Variables: Record<string, unknown>
    }
  ).Variables

// Synthesised once for the default settings: a synth takes seconds on a shared machine.
let defaults: ReturnType<typeof buildApp>['homeTemplate']
beforeAll(() => {
  defaults = buildApp().homeTemplate
}, 120_000)

describe('the kill switch', () => {
  it('is an SSM String parameter the stack creates off, named to both Lambdas', () => {
    const homeTemplate = defaults
    homeTemplate.hasResourceProperties('AWS::SSM::Parameter', {
      Name: '/spotswap/kill-switch',
      Type: 'String',
      Value: 'off',
    })
    const parameter = resourceOf(homeTemplate, 'AWS::SSM::Parameter', 'KillSwitchParameter')
    for (const id of ['Replacer', 'InterruptionHandler'])
      expect(lambdaVariables(homeTemplate, id).KILL_SWITCH_PARAMETER).toEqual({ Ref: parameter.logicalId })
  })

  it('takes its name from spotswap:killSwitchParameter', { timeout: 120_000 }, () => {
    const { homeTemplate } = buildApp({ context: { 'spotswap:killSwitchParameter': '/ops/spotswap-stop' } })
    homeTemplate.hasResourceProperties('AWS::SSM::Parameter', { Name: '/ops/spotswap-stop', Value: 'off' })
    homeTemplate.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Sid: 'ReadKillSwitch',
            Action: 'ssm:GetParameter',
            Resource: Match.objectLike({
              'Fn::Join': Match.arrayWith([Match.arrayWith([':parameter/ops/spotswap-stop'])]),
            }),
          }),
        ]),
      },
    })
  })

  it.each(['no spaces', '/aws/reserved'])('refuses the name %j', { timeout: 120_000 }, (name) => {
    expect(() => buildApp({ context: { 'spotswap:killSwitchParameter': name } })).toThrow(
      /killSwitchParameterName must be an SSM parameter name/,
    )
  })

  it('is shown on the dashboard, with the actions it held', () => {
    const homeTemplate = defaults
    const body = render(
      resourceOf(homeTemplate, 'AWS::CloudWatch::Dashboard', 'Dashboard').properties.DashboardBody,
    )
    const widgets = (JSON.parse(body) as { widgets: { properties: { title?: string; metrics?: unknown } }[] })
      .widgets
    const widget = widgets.find((w) => w.properties.title === 'Kill switch (0 off, 1 on, 2 hard)')
    expect(JSON.stringify(widget?.properties.metrics)).toContain('KillSwitch')
    expect(JSON.stringify(widget?.properties.metrics)).toContain('ActionsHeldByKillSwitch')
  })
})
