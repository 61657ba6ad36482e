import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

const benchEntry = resolve(import.meta.dirname, 'bench/run-bench.ts');

// The CLI and the benchmark run in plain Node (no Electron): one SSR bundle per entry, with the
// shared code inlined and Node built-ins left as imports. resvg (the PNG rasterizer) is a native
// addon with per-platform packages: it stays a runtime dependency, required from node_modules.
export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'src/shared') } },
  build: {
    ssr: true,
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rollupOptions: {
      input: {
        allocscope: resolve(import.meta.dirname, 'src/cli/main.ts'),
        // `allocscope ranks` reads files in worker threads running this script.
        'rank-figures-worker': resolve(import.meta.dirname, 'src/cli/rank-figures-worker.ts'),
        // A parallel decode's parts (--jobs) decode in worker threads running this script.
        'decode-part-worker': resolve(import.meta.dirname, 'src/cli/decode-part-worker.ts'),
        ...(existsSync(benchEntry) ? { bench: benchEntry } : {}),
        'make-demo-snapshot': resolve(import.meta.dirname, 'scripts/make-demo-snapshot.ts'),
      },
      external: [
        ...builtinModules,
        ...builtinModules.map((name) => `node:${name}`),
        /^@resvg\/resvg-js/,
      ],
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
});
