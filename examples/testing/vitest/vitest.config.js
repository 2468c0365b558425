// This example's own Vitest settings: it runs on its own (`npx vitest run` in this folder).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { testTimeout: 30_000, hookTimeout: 30_000, fileParallelism: false },
});
