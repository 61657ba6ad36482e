// Builds the long fuzz runner (scripts/fuzz.ts) for plain Node: `npm run fuzz` builds it into
// out/fuzz/ and runs it. Dependencies stay in node_modules; Node built-ins stay imports.

import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const root = resolve(import.meta.dirname, '../..');

export default defineConfig({
  root,
  resolve: { alias: { '@shared': resolve(root, 'src/shared') } },
  build: {
    ssr: true,
    outDir: resolve(root, 'out/fuzz'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rollupOptions: {
      input: { fuzz: resolve(root, 'scripts/fuzz.ts') },
      external: [...builtinModules, ...builtinModules.map((name) => `node:${name}`)],
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
});
