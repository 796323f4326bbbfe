#!/usr/bin/env node
/**
 * The spotswap CDK app: reads the settings from context (cdk.json, overridable with -c) and creates the
 * home stack plus one forwarding stack per other covered region. cdk-nag's AwsSolutions checks run on
 * every synth; an unacknowledged finding fails it.
 */
import { App, Validations } from 'aws-cdk-lib'
import { AwsSolutionsChecks } from 'cdk-nag'
import { readAppConfig } from '../lib/app-config.ts'
import { createSpotSwapStacks } from '../lib/stacks.ts'

const app = new App()
createSpotSwapStacks(app, readAppConfig(app.node.getAllContext(), process.env))
Validations.of(app).addPlugins(new AwsSolutionsChecks(app))
