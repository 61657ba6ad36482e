// Runs the fuzz suite alone (`npx vitest run -c test/fuzz/vitest.config.ts`), without the global
// setup of the unit tests (CLI build, generated snapshots), which the fuzz suite does not need.

import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, '../../src/shared') } },
  test: {
    root: resolve(import.meta.dirname, '../..'),
    include: ['test/fuzz/**/*.test.ts'],
    testTimeout: 120_000,
    pool: 'forks',
  },
});
