import { resolve } from 'node:path';
import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

// Builds bench/split-plan-bench.ts alone (issue 25's measurements of the split plan).
export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, '../src/shared') } },
  build: {
    ssr: true,
    outDir: resolve(import.meta.dirname, '../out/split-bench'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: {
      input: { 'split-plan-bench': resolve(import.meta.dirname, 'split-plan-bench.ts') },
      external: [...builtinModules, ...builtinModules.map((name) => `node:${name}`)],
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
});
