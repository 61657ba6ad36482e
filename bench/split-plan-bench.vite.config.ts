import { resolve } from 'node:path';
import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

// Builds issue 25's measurements alone: bench/split-plan-bench.ts, bench/parallel-decode-bench.ts.
export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, '../src/shared') } },
  build: {
    ssr: true,
    outDir: resolve(import.meta.dirname, '../out/split-bench'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rollupOptions: {
      input: {
        'split-plan-bench': resolve(import.meta.dirname, 'split-plan-bench.ts'),
        'parallel-decode-bench': resolve(import.meta.dirname, 'parallel-decode-bench.ts'),
      },
      external: [...builtinModules, ...builtinModules.map((name) => `node:${name}`)],
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
});
