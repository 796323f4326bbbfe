import { App, type Stack } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { readAppConfig } from '../../lib/app-config.ts'
import { HOME_STACK_NAME, SpotSwapStage } from '../../lib/stacks.ts'
import { buildApp } from './support/app.ts'

describe('the home stack outputs', () => {
  // Synthesized in the hook (a longer timeout): the first synth of a file is slow on a loaded machine.
  let template: Template
  beforeAll(() => {
    template = buildApp({ context: { 'spotswap:rehearsalGroup': 'web' } }).homeTemplate
  })

  it('point at the dashboard, the log groups and the failed-events queue, and name the rehearsal template', () => {
    const outputs = template.findOutputs('*')
    expect(Object.keys(outputs).sort()).toEqual([
      'DashboardUrl',
      'FailedEventsQueueUrl',
      'InterruptionHandlerLogGroup',
      'RehearsalExperimentTemplateId',
      'ReplacerLogGroup',
    ])
    expect(JSON.stringify(outputs.DashboardUrl?.Value)).toContain('#dashboards:name=')
  })

  it('have no rehearsal output without a rehearsal', () => {
    expect(Object.keys(buildApp().homeTemplate.findOutputs('*'))).not.toContain(
      'RehearsalExperimentTemplateId',
    )
  })
})

describe('the forwarder stacks', () => {
  it('need no CDK bootstrap stack, so StackSets can deploy their template anywhere', () => {
    const { forwarders } = buildApp({ context: { 'spotswap:regions': 'us-east-1,eu-west-1' } })
    const template = Template.fromStack(forwarders[0] as Stack).toJSON()
    expect(template.Parameters ?? {}).not.toHaveProperty('BootstrapVersion')
    expect(template.Rules ?? {}).not.toHaveProperty('CheckBootstrapVersion')
  })
})

describe('SpotSwapStage', () => {
  it("deploys one account's home stack and forwarders into that account", () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } })
    const config = readAppConfig(
      { 'spotswap:homeRegion': 'eu-west-1', 'spotswap:regions': 'eu-west-1,us-east-1' },
      {},
    )
    const stage = new SpotSwapStage(app, 'Production', { env: { account: '444455556666' }, config })
    const stacks = [stage.stacks.home, ...stage.stacks.forwarders]
    expect(stacks.map((s) => [s.node.id, s.account, s.region])).toEqual([
      [HOME_STACK_NAME, '444455556666', 'eu-west-1'],
      ['SpotSwap-forwarder-us-east-1', '444455556666', 'us-east-1'],
    ])
  })
})
