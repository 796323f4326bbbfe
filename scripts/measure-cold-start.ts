/**
 * Measures what a Lambda cold start costs for a handler: the size of its esbuild bundle, built with the
 * deployed options (lib/functions.ts LAMBDA_BUNDLING: ESM, the SDK's ES modules so unused commands are
 * left out, minified, names kept, everything bundled including the AWS SDK) and the time to import that
 * bundle in a fresh node process, which is the module-initialisation part of a cold start (the
 * runtime's own start and the first AWS call's TLS handshake come on top).
 *
 *   npx tsx scripts/measure-cold-start.ts                      # the interruption handler
 *   npx tsx scripts/measure-cold-start.ts lambdas/replacer/handler.ts --runs 15 --json
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { type BuildOptions, build, type Metafile } from 'esbuild'
import { LAMBDA_BUNDLING } from '../lib/functions.ts'

const DEFAULT_HANDLERS = ['lambdas/interruption/handler.ts']
const DEFAULT_RUNS = 9
/** What the deployed bundle is built with (source maps aside: they change no code). */
const DEPLOYED: BuildOptions = {
  format: LAMBDA_BUNDLING.format === 'esm' ? 'esm' : 'cjs',
  ...(LAMBDA_BUNDLING.target === undefined ? {} : { target: LAMBDA_BUNDLING.target }),
  ...(LAMBDA_BUNDLING.mainFields === undefined ? {} : { mainFields: LAMBDA_BUNDLING.mainFields }),
  ...(LAMBDA_BUNDLING.banner === undefined ? {} : { banner: { js: LAMBDA_BUNDLING.banner } }),
  external: LAMBDA_BUNDLING.externalModules ?? [],
  minify: LAMBDA_BUNDLING.minify ?? false,
  keepNames: LAMBDA_BUNDLING.keepNames ?? false,
}

interface Measurement {
  readonly handler: string
  readonly bundleBytes: number
  readonly gzipBytes: number
  /** The largest contributors to the bundle, by package. */
  readonly largestPackages: readonly { readonly name: string; readonly bytes: number }[]
  readonly runs: number
  /** Time to `import()` the bundle: module evaluation, i.e. everything the handler does at load. */
  readonly importMs: Stats
  /** CPU (user + system) spent importing: robust to a busy machine, where wall time is not. */
  readonly importCpuMs: Stats
  /** From process start to the handler being ready: node's own start plus the import. */
  readonly processToReadyMs: Stats
  /** The same probe importing an empty module: the floor to subtract on this machine. */
  readonly baselineImportMs: Stats
}

interface Stats {
  readonly median: number
  readonly min: number
  readonly max: number
}

const stats = (values: readonly number[]): Stats => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  const median =
    sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
  return { median: round(median), min: round(sorted[0] ?? 0), max: round(sorted.at(-1) ?? 0) }
}

const round = (value: number): number => Math.round(value * 10) / 10

/** node_modules/@scope/name/... → @scope/name; project files → (spotswap). */
const packageOf = (input: string): string => {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)
  return match?.[1] ?? '(spotswap)'
}

const largestPackages = (metafile: Metafile, outfile: string, top = 6) => {
  const output = Object.entries(metafile.outputs).find(([path]) => resolve(path) === outfile)?.[1]
  const byPackage = new Map<string, number>()
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    byPackage.set(packageOf(input), (byPackage.get(packageOf(input)) ?? 0) + bytesInOutput)
  }
  return [...byPackage]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, bytes]) => ({ name, bytes }))
}

/** The environment a deployed handler starts with; nothing is called at import, so the values are inert. */
const LAMBDA_LIKE_ENV = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'cold-start-measurement',
  AWS_SECRET_ACCESS_KEY: 'cold-start-measurement',
  REGIONS: 'us-east-1',
  NODE_ENV: 'production',
}

const IMPORT_PROBE = [
  'const started = performance.now()',
  'const cpu = process.cpuUsage()',
  'await import(process.argv.at(-1))',
  'const ready = performance.now()',
  'const used = process.cpuUsage(cpu)',
  'const importCpuMs = (used.user + used.system) / 1000',
  "console.log('COLD-START ' + JSON.stringify({ importMs: ready - started, importCpuMs, processToReadyMs: ready }))",
].join('\n')

interface Sample {
  readonly importMs: number
  readonly importCpuMs: number
  readonly processToReadyMs: number
}

const importOnce = async (bundleUrl: string): Promise<Sample> => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', IMPORT_PROBE, bundleUrl],
    { env: LAMBDA_LIKE_ENV, timeout: 60_000 },
  )
  const line = stdout.split('\n').find((candidate) => candidate.startsWith('COLD-START '))
  if (line === undefined) throw new Error(`the probe printed no timing:\n${stdout}`)
  return JSON.parse(line.slice('COLD-START '.length)) as Sample
}

export const measure = async (handler: string, runs: number): Promise<Measurement> => {
  const directory = await mkdtemp(join(tmpdir(), 'spotswap-cold-start-'))
  try {
    const outfile = resolve(directory, `${basename(dirname(handler))}-handler.mjs`)
    const result = await build({
      entryPoints: [resolve(handler)],
      outfile,
      ...DEPLOYED,
      bundle: true,
      platform: 'node',
      metafile: true,
      logLevel: 'error',
    })
    const bundle = await readFile(outfile)
    const empty = join(directory, 'empty.mjs')
    await writeFile(empty, 'export {}\n')
    // Interleaved, so a burst of load on a shared machine hits handler and baseline alike.
    const samples: Sample[] = []
    const baseline: Sample[] = []
    for (let run = 0; run < runs; run++) {
      samples.push(await importOnce(pathToFileURL(outfile).href))
      baseline.push(await importOnce(pathToFileURL(empty).href))
    }
    return {
      handler,
      bundleBytes: (await stat(outfile)).size,
      gzipBytes: gzipSync(bundle).length,
      largestPackages: largestPackages(result.metafile, outfile),
      runs,
      importMs: stats(samples.map((sample) => sample.importMs)),
      importCpuMs: stats(samples.map((sample) => sample.importCpuMs)),
      processToReadyMs: stats(samples.map((sample) => sample.processToReadyMs)),
      baselineImportMs: stats(baseline.map((sample) => sample.importMs)),
    }
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KiB`

const describe = (m: Measurement): string =>
  [
    m.handler,
    `  bundle        ${kib(m.bundleBytes)} (${m.bundleBytes} bytes), gzip ${kib(m.gzipBytes)}`,
    `  largest       ${m.largestPackages.map((p) => `${p.name} ${kib(p.bytes)}`).join(', ')}`,
    `  import        median ${m.importMs.median} ms (min ${m.importMs.min}, max ${m.importMs.max}) over ${m.runs} fresh processes`,
    `  import CPU    median ${m.importCpuMs.median} ms (min ${m.importCpuMs.min}, max ${m.importCpuMs.max})`,
    `  start→ready   median ${m.processToReadyMs.median} ms (min ${m.processToReadyMs.min}, max ${m.processToReadyMs.max})`,
    `  baseline      empty-module import median ${m.baselineImportMs.median} ms on this machine`,
  ].join('\n')

const main = async (): Promise<void> => {
  const args = process.argv.slice(2)
  const json = args.includes('--json')
  const runsAt = args.indexOf('--runs')
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : DEFAULT_RUNS
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a positive integer')
  const handlers = args.filter(
    (arg, index) => !arg.startsWith('--') && index !== runsAt + 1 && arg.endsWith('.ts'),
  )
  const measurements = []
  for (const handler of handlers.length > 0 ? handlers : DEFAULT_HANDLERS)
    measurements.push(await measure(handler, runs))
  const header = `node ${process.version} on ${process.platform}/${process.arch}; esbuild as deployed: ${JSON.stringify({ ...DEPLOYED, banner: undefined })}`
  console.log(
    json
      ? JSON.stringify({ node: process.version, measurements }, null, 2)
      : [header, ...measurements.map(describe)].join('\n\n'),
  )
}

await main()
