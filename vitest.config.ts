import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    // CI asks for a JSON report beside the console one, to print a closing summary line.
    ...(process.env['VITEST_JSON'] && {
      reporters: ['default', 'json'],
      outputFile: { json: process.env['VITEST_JSON'] },
    }),
  },
})
