import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@guildhall/protocol': fileURLToPath(
        new URL('./packages/protocol/src/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // PostgreSQL and NATS are probed once per run; test files read the result (test/support).
    globalSetup: ['packages/server/test/support/globalSetup.ts'],
    // CI reads the JSON report for its plain "N passed, N failed" line (.ci/run).
    reporters:
      process.env['CI'] === 'true'
        ? ['default', ['json', { outputFile: '.vitest-results.json' }]]
        : ['default'],
  },
});
