#!/usr/bin/env node
/**
 * The spotswap CDK app: reads the settings from context (cdk.json, overridable with -c) and creates the
 * home stack plus one forwarding stack per other covered region. cdk-nag's AwsSolutions checks run on
 * every synth; an unacknowledged finding fails it. A bad setting ends the synth with one line per
 * problem (setting, value, what was expected), not a stack trace.
 */
import { App, Validations } from 'aws-cdk-lib'
import { AwsSolutionsChecks } from 'cdk-nag'
import { readAppConfig } from '../lib/app-config.ts'
import { InvalidSettingsError } from '../lib/configuration.ts'
import { createSpotSwapStacks } from '../lib/stacks.ts'

const app = new App()
try {
  createSpotSwapStacks(app, readAppConfig(app.node.getAllContext(), process.env))
} catch (error) {
  if (!(error instanceof InvalidSettingsError)) throw error
  process.stderr.write(`spotswap: ${error.message}\n`)
  process.exit(1)
}
Validations.of(app).addPlugins(new AwsSolutionsChecks(app))
