import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/moto.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
})
