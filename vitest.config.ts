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
  },
});
