import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const CI = process.env['CI'] === 'true';

export default defineConfig({
  resolve: {
    alias: {
      '@guildhall/protocol': fileURLToPath(
        new URL('./packages/protocol/src/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Test files of one worker share its module graph instead of importing the server (Fastify,
    // discord.js, kysely, sharp…) again for each of them: about 3 s per file. Nothing in the
    // tests mocks modules or keeps state in them, and each test opens its own server.
    isolate: false,
    // Most of a test's time is waiting (PostgreSQL, sockets, the gateway's timers), not CPU: on
    // the 2-core CI machine four workers ran the suite in 7 min against 11.6 min with the
    // default two, with the same results.
    maxWorkers: 4,
    // PostgreSQL and NATS are probed once per run; test files read the result (test/support).
    globalSetup: ['packages/server/test/support/globalSetup.ts'],
    // CI reads the JSON report for its plain "N passed, N failed" line (.ci/run).
    reporters: CI ? ['default', ['json', { outputFile: '.vitest-results.json' }]] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          // The server's and the SDK's tests, and the browser tests (Node drives Chromium).
          include: [
            'packages/{protocol,server,sdk,testkit}/src/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'web',
          // The pages' components, rendered in jsdom with Testing Library.
          include: ['packages/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          isolate: true,
        },
      },
    ],
  },
});
