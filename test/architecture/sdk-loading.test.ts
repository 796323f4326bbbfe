/**
 * When the AWS SDK loads, read from esbuild's own module graph (its metafile) rather than from the
 * sources: each Lambda evaluates every SDK client it bundles, and every file of ours, at init, through
 * static imports, so no request pays for loading them; the simulator, which runs the same adapter over
 * its own clients, reaches no @aws-sdk module through a static import (the adapter's one way to the real
 * clients is a dynamic import, taken only when it is given none).
 */
import { readdirSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Metafile } from 'esbuild'
import { describe, expect, it } from 'vitest'

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), '../..'))

/** The import kinds evaluated with the importing module; `import()` and `require.resolve` are not. */
const EVALUATED_AT_ONCE = new Set(['import-statement', 'require-call'])

const bundleGraph = async (entryPoints: readonly string[]): Promise<Metafile> => {
  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: [...entryPoints],
    bundle: true,
    write: false,
    outdir: 'bundle',
    platform: 'node',
    format: 'esm',
    // As lib/functions.ts bundles the Lambdas: the SDK's ES modules, whose imports stay imports.
    mainFields: ['module', 'main'],
    metafile: true,
    logLevel: 'silent',
  })
  return metafile
}

/** The inputs evaluated as soon as the entries are: those reached through static imports alone. */
const evaluatedAtOnce = (metafile: Metafile, entries: readonly string[]): Set<string> => {
  const seen = new Set<string>()
  const pending = [...entries]
  for (let input = pending.pop(); input !== undefined; input = pending.pop()) {
    if (seen.has(input)) continue
    seen.add(input)
    for (const edge of metafile.inputs[input]?.imports ?? [])
      if (!edge.external && EVALUATED_AT_ONCE.has(edge.kind)) pending.push(edge.path)
  }
  return seen
}

/** `…/node_modules/@aws-sdk/client-ec2/dist-es/…` → `@aws-sdk/client-ec2`. */
const sdkPackageOf = (input: string): string | undefined =>
  /node_modules\/(@aws-sdk\/[^/]+)\//.exec(input)?.[1]

const isSdkClient = (input: string): boolean => sdkPackageOf(input)?.startsWith('@aws-sdk/client-') === true

const sources = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })

describe('where the AWS SDK loads', () => {
  it.each(['lambdas/replacer/handler.ts', 'lambdas/interruption/handler.ts'])(
    '%s evaluates its SDK clients and all of spotswap at init',
    async (handler) => {
      const graph = await bundleGraph([handler])
      const bundled = Object.keys(graph.inputs)
      const atInit = evaluatedAtOnce(graph, [handler])
      const deferred = bundled.filter(
        (input) => !atInit.has(input) && (isSdkClient(input) || input.startsWith('lambdas/')),
      )
      expect(deferred).toEqual([])
      expect(new Set(bundled.filter(isSdkClient).map(sdkPackageOf))).toEqual(
        new Set([
          '@aws-sdk/client-auto-scaling',
          '@aws-sdk/client-cloudformation',
          '@aws-sdk/client-ec2',
          // Capacity providers of groups behind ECS (lambdas/aws/ecs.ts).
          '@aws-sdk/client-ecs',
          '@aws-sdk/client-elastic-load-balancing',
          '@aws-sdk/client-elastic-load-balancing-v2',
          // Markers are signed and verified with the KMS HMAC key (lambdas/aws/markers.ts).
          '@aws-sdk/client-kms',
          '@aws-sdk/client-pricing',
          // The account's Savings Plans and their rates (lambdas/aws/savings-plans.ts).
          '@aws-sdk/client-savingsplans',
          '@aws-sdk/client-sqs',
          // The kill switch's parameter (lambdas/aws/kill-switch.ts).
          '@aws-sdk/client-ssm',
        ]),
      )
    },
    120_000,
  )

  it('the simulator and its command line reach no @aws-sdk module through a static import', async () => {
    const entries = [...sources('tools/sim'), 'tools/cli/main.ts']
    const graph = await bundleGraph(entries)
    const loaded = [...evaluatedAtOnce(graph, entries)].filter((input) => sdkPackageOf(input) !== undefined)
    expect(loaded).toEqual([])
    // The SDK is bundled, behind the adapter's dynamic import: the walk above is what leaves it out.
    expect(Object.keys(graph.inputs).some(isSdkClient)).toBe(true)
    // Bundling the whole simulator takes about 20 s on a loaded 2-core machine: not a speed check.
  }, 120_000)

  it('follows static imports and stops at dynamic ones (the walk can fail)', () => {
    const input = (imports: Metafile['inputs'][string]['imports']) => ({ bytes: 1, imports })
    const graph: Metafile = {
      inputs: {
        'a.ts': input([
          { path: 'b.ts', kind: 'import-statement' },
          { path: 'c.ts', kind: 'dynamic-import' },
        ]),
        'b.ts': input([{ path: 'node_modules/@aws-sdk/client-ec2/index.js', kind: 'require-call' }]),
        'c.ts': input([]),
        'node_modules/@aws-sdk/client-ec2/index.js': input([]),
      },
      outputs: {},
    }
    expect([...evaluatedAtOnce(graph, ['a.ts'])].sort()).toEqual([
      'a.ts',
      'b.ts',
      'node_modules/@aws-sdk/client-ec2/index.js',
    ])
  })
})
