/**
 * The architecture's rules (issue 15 item 6), checked on every import, type-only and dynamic ones
 * included: core (and the embedded data) imports nothing but core and data, and no package at all (no SDK,
 * no Node module: no clock or environment behind the planner's back); the adapters import no handler and
 * no tool; the handlers import no tool; the CDK app imports no adapter, handler or tool; the tools import
 * from the adapter only its public entry (cloud.ts) and the SDK-free rules both sides share (errors.ts,
 * limits.ts), so the simulator runs the real adapter instead of copying its parts. Every file under
 * lambdas/ is reached from one of the two handlers (lambdas/ holds only what a Lambda bundles). No import
 * cycle among files, nor among the tools' folders.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), '../..'))

const TOOLS = ['tools']
const HANDLERS = ['lambdas/replacer', 'lambdas/interruption']

interface Layer {
  readonly name: string
  readonly files: string
  /** Folders (repository-relative) its files may not import from. */
  readonly forbidden: readonly string[]
  /** Folders it may import from, when the layer allows nothing else. */
  readonly only?: readonly string[]
  /** Whether it may import packages (npm, node:). */
  readonly packages: boolean
  /** The only files of lambdas/aws it may import, when it may import only some. */
  readonly adapterFiles?: readonly string[]
}

/** The adapter's public entry and its SDK-free rules (error classes and codes, API limits). */
const ADAPTER_ENTRY = 'lambdas/aws/cloud.ts'
const ADAPTER_RULES = ['lambdas/aws/errors.ts', 'lambdas/aws/limits.ts']

const LAYERS: readonly Layer[] = [
  {
    name: 'core',
    files: 'lambdas/core',
    forbidden: [],
    only: ['lambdas/core', 'lambdas/data'],
    packages: false,
  },
  {
    name: 'data',
    files: 'lambdas/data',
    forbidden: [],
    only: ['lambdas/core', 'lambdas/data'],
    packages: false,
  },
  { name: 'adapters', files: 'lambdas/aws', forbidden: [...HANDLERS, ...TOOLS], packages: true },
  { name: 'handlers', files: 'lambdas/replacer', forbidden: TOOLS, packages: true },
  { name: 'handlers', files: 'lambdas/interruption', forbidden: TOOLS, packages: true },
  { name: 'CDK app', files: 'lib', forbidden: ['lambdas/aws', ...HANDLERS, ...TOOLS], packages: true },
  {
    name: 'tools',
    files: 'tools',
    forbidden: [],
    packages: true,
    adapterFiles: [ADAPTER_ENTRY, ...ADAPTER_RULES],
  },
]

const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\b[^;'"]*?\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

/** Every import specifier of a TypeScript source, static, re-exported or dynamic. */
const importsOf = (source: string): string[] =>
  [...source.matchAll(SPECIFIER)].map((m) => (m[1] ?? m[2]) as string)

const within = (path: string, folder: string): boolean => path === folder || path.startsWith(`${folder}/`)

/** What is wrong with one file's imports under a layer, one line each. */
const breaches = (layer: Layer, file: string, source: string): string[] =>
  importsOf(source).flatMap((specifier) => {
    if (!specifier.startsWith('.'))
      return layer.packages ? [] : [`${file} imports the package ${specifier} (${layer.name} imports none)`]
    const target = normalize(join(dirname(file), specifier))
    if (layer.only !== undefined && !layer.only.some((folder) => within(target, folder)))
      return [`${file} imports ${target} (${layer.name} imports only ${layer.only.join(', ')})`]
    const hit = layer.forbidden.find((folder) => within(target, folder))
    if (hit !== undefined) return [`${file} imports ${target} (${layer.name} may not import ${hit})`]
    const allowed = layer.adapterFiles
    return allowed === undefined || !within(target, 'lambdas/aws') || allowed.includes(target)
      ? []
      : [`${file} imports ${target} (${layer.name} imports from lambdas/aws only ${allowed.join(', ')})`]
  })

const sources = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })

describe('the layers of the codebase', () => {
  it.each(LAYERS.map((layer) => [layer.files, layer] as const))('%s keeps to its layer', (_, layer) => {
    const found = sources(layer.files).flatMap((file) =>
      breaches(layer, file, readFileSync(join(ROOT, file), 'utf8')),
    )
    expect(found).toEqual([])
    expect(sources(layer.files).length).toBeGreaterThan(0)
  })

  it('flags what each rule forbids (the checker can fail)', () => {
    const [core, , adapters, handlers, , app, tools] = LAYERS as [
      Layer,
      Layer,
      Layer,
      Layer,
      Layer,
      Layer,
      Layer,
    ]
    expect(breaches(core, 'lambdas/core/x.ts', "import { x } from '../aws/cloud.ts'")).toHaveLength(1)
    expect(breaches(core, 'lambdas/core/x.ts', "import type { X } from '@aws-sdk/client-ec2'")).toHaveLength(
      1,
    )
    expect(breaches(core, 'lambdas/core/x.ts', "import { randomUUID } from 'node:crypto'")).toHaveLength(1)
    expect(breaches(core, 'lambdas/core/x.ts', "export { y } from './swap/record.ts'")).toEqual([])
    expect(
      breaches(adapters, 'lambdas/aws/x.ts', "import { r } from '../replacer/run-region.ts'"),
    ).toHaveLength(1)
    expect(
      breaches(handlers, 'lambdas/replacer/x.ts', "const m = await import('../../tools/sim/world.ts')"),
    ).toHaveLength(1)
    expect(breaches(app, 'lib/x.ts', "import { h } from '../lambdas/interruption/handler.ts'")).toHaveLength(
      1,
    )
    expect(breaches(app, 'lib/x.ts', "import { c } from '../lambdas/core/constants.ts'")).toEqual([])
    expect(
      breaches(tools, 'tools/sim/x.ts', "import { chunk } from '../../lambdas/aws/paginate.ts'"),
    ).toHaveLength(1)
    expect(
      breaches(tools, 'tools/sim/sdk/x.ts', "import type { Ec2Api } from '../../../lambdas/aws/cloud.ts'"),
    ).toEqual([])
  })

  it('keeps the rules the tools share with the adapter free of the SDK', () => {
    const rules: Layer = { name: 'adapter rules', files: '', forbidden: [], packages: false }
    const found = ADAPTER_RULES.flatMap((file) =>
      breaches(rules, file, readFileSync(join(ROOT, file), 'utf8')),
    )
    expect(found).toEqual([])
    expect(
      breaches(rules, 'lambdas/aws/errors.ts', "import type { X } from '@aws-sdk/client-ec2'"),
    ).toHaveLength(1)
  })
})

/** Import cycles among files (strongly connected components of two or more), each sorted. */
const cyclesOf = (graph: ReadonlyMap<string, readonly string[]>): string[][] => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let next = 0
  const visit = (node: string): void => {
    index.set(node, next)
    low.set(node, next)
    next++
    stack.push(node)
    onStack.add(node)
    for (const to of graph.get(node) ?? []) {
      if (!graph.has(to)) continue
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number))
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) as number, index.get(to) as number))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member)
      component.push(member)
      if (member === node) break
    }
    if (component.length > 1) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''))
}

/** Every relative import of every source under lambdas/, tools/ and lib/, resolved to a repository path. */
const fileGraph = (): Map<string, string[]> =>
  new Map(
    ['lambdas', 'tools', 'lib'].flatMap(sources).map((file) => [
      file,
      importsOf(readFileSync(join(ROOT, file), 'utf8'))
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => normalize(join(dirname(file), specifier))),
    ]),
  )

/** The files reachable from the given entry points through relative imports. */
const reachableFrom = (
  graph: ReadonlyMap<string, readonly string[]>,
  entries: readonly string[],
): Set<string> => {
  const seen = new Set<string>()
  const pending = [...entries]
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue
    seen.add(file)
    pending.push(...(graph.get(file) ?? []))
  }
  return seen
}

describe('lambdas/ holds only what a Lambda bundles', () => {
  it('has no source the two handlers do not reach', () => {
    const graph = fileGraph()
    const reached = reachableFrom(graph, ['lambdas/replacer/handler.ts', 'lambdas/interruption/handler.ts'])
    expect(sources('lambdas').filter((file) => !reached.has(file))).toEqual([])
    expect(reached.has('lambdas/core/plan/planner.ts')).toBe(true)
  })

  it('finds a file no entry point reaches (the walk can fail)', () => {
    const graph = new Map([
      ['h.ts', ['a.ts']],
      ['a.ts', ['b.ts']],
      ['orphan.ts', ['a.ts']],
    ])
    expect([...reachableFrom(graph, ['h.ts'])].sort()).toEqual(['a.ts', 'b.ts', 'h.ts'])
  })
})

describe('import cycles', () => {
  it('has none among the files of lambdas/, tools/ and lib/', () => {
    expect(cyclesOf(fileGraph())).toEqual([])
  })

  it('has none among the tools (sim, cli, bench, chaos, data, shared) at folder level', () => {
    const folderOf = (file: string): string => file.split('/').slice(0, 2).join('/')
    const folders = new Map<string, Set<string>>()
    for (const [file, targets] of fileGraph()) {
      if (!file.startsWith('tools/')) continue
      const from = folderOf(file)
      const edges = folders.get(from) ?? new Set<string>()
      folders.set(from, edges)
      for (const target of targets)
        if (target.startsWith('tools/') && folderOf(target) !== from) edges.add(folderOf(target))
    }
    expect(cyclesOf(new Map([...folders].map(([folder, edges]) => [folder, [...edges]])))).toEqual([])
    expect(folders.size).toBeGreaterThanOrEqual(6)
  })

  it('finds a cycle it is shown', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ])
    expect(cyclesOf(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']])
  })
})
