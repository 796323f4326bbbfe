import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/moto.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Handlers log JSON lines and EMF documents to stdout; tests assert on recorders instead.
    env: { POWERTOOLS_METRICS_DISABLED: 'true', LOG_LEVEL: 'SILENT' },
  },
})
