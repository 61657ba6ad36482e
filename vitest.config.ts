import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export const sharedAlias = { '@shared': resolve(import.meta.dirname, 'src/shared') };

export default defineConfig({
  resolve: { alias: sharedAlias },
  test: {
    include: [
      'src/**/*.test.ts',
      'test/unit/**/*.test.ts',
      'test/fuzz/**/*.test.ts',
      'test/golden/**/*.test.ts',
    ],
    globalSetup: ['test/setup/global-setup.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker less than the cores: one worker on the 2-core CI machines,
    // where the suite ran 19 min one file after another while most files wait on CLI processes.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
