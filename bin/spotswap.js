#!/usr/bin/env node
// The `spotswap` command. The CLI is TypeScript run through tsx's loader, so `npm install -g` or `npx`
// works without a build step; tsx must therefore be installed alongside (see package.json).
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../tools/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
