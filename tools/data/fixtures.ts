/**
 * The JSON of fixtures/, parsed. Read and parsed here rather than imported as JSON modules: under tsx an
 * imported JSON file becomes a JavaScript module, loaded through the loader's worker and compiled, which
 * took two to four times as long as JSON.parse (the spot prices, 440 kB: 50 to 90 ms instead of 20 to 30)
 * on every start of the simulator. The tools are not bundled, so reading a file beside the code is fine.
 */
import { readFileSync } from 'node:fs'

export const readFixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'))
