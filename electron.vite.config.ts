import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { rendererPlugins, rendererRoot, sharedAlias } from './vite.renderer.config.js';

export default defineConfig({
  main: {
    resolve: { alias: sharedAlias },
    build: {
      outDir: 'out/main',
      rolldownOptions: { input: { index: resolve(import.meta.dirname, 'src/main/index.ts') } },
    },
  },
  preload: {
    resolve: { alias: sharedAlias },
    build: {
      outDir: 'out/preload',
      // A sandboxed preload is a classic script whose `require` is Electron's small polyfill
      // (electron, events, timers, url): no ES modules, no sibling chunks, no node_modules. So it
      // ships as one self-contained CommonJS file with every dependency inlined.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: rendererRoot,
    resolve: { alias: sharedAlias },
    plugins: rendererPlugins(),
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      rolldownOptions: { input: { index: resolve(rendererRoot, 'index.html') } },
    },
  },
});
