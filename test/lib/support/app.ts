/**
 * Builds spotswap exactly as bin/app.ts does, from a context object. Bundling the Lambdas is real but
 * slow (esbuild, seconds per function), so only the suites that look at the code asset ask for it;
 * the others use CDK's own switch for skipping bundling, which leaves the templates otherwise identical.
 */
import { App } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { readAppConfig } from '../../../lib/app-config.ts'
import { createSpotSwapStacks, type SpotSwapStacks } from '../../../lib/stacks.ts'

export interface BuildOptions {
  readonly context?: Readonly<Record<string, unknown>>
  readonly bundle?: boolean
}

export interface BuiltApp extends SpotSwapStacks {
  readonly app: App
  readonly homeTemplate: Template
}

/** One home region and no forwarders unless a suite asks: seventeen forwarding stacks cost seconds. */
const SMALL_LAYOUT = { 'spotswap:homeRegion': 'us-east-1', 'spotswap:regions': 'us-east-1' }

export const buildApp = ({ context = {}, bundle = false }: BuildOptions = {}): BuiltApp => {
  const app = new App({
    context: { ...SMALL_LAYOUT, ...(bundle ? {} : { 'aws:cdk:bundling-stacks': [] }), ...context },
  })
  const stacks = createSpotSwapStacks(app, readAppConfig(app.node.getAllContext(), {}))
  return { app, ...stacks, homeTemplate: Template.fromStack(stacks.home) }
}

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>

/** The single resource of a type whose logical id contains `idPart`. */
export const resourceOf = (template: Template, type: string, idPart: string) => {
  const matches = Object.entries(template.findResources(type) as Resources).filter(([id]) =>
    id.includes(idPart),
  )
  if (matches.length !== 1)
    throw new Error(`expected one ${type} matching ${idPart}, found ${matches.length}`)
  const [logicalId, resource] = matches[0] as [string, Resources[string]]
  return { logicalId, properties: resource.Properties }
}
