import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build, defineConfig, type Plugin, type Rolldown } from 'vite';
import { rendererPlugins, rendererRoot, sharedAlias } from './vite.renderer.config.js';

// The renderer as a static site: relative URLs everywhere, so out/web/ works from any static file
// server, under any sub-path, and straight from disk (file://).
export default defineConfig({
  root: rendererRoot,
  base: './',
  resolve: { alias: sharedAlias },
  plugins: [
    ...rendererPlugins(),
    classicScriptsForFileUrls(),
    demoSnapshotBesideThePage(),
    servedPageScripts(),
  ],
  build: {
    outDir: resolve(import.meta.dirname, 'out/web'),
    emptyOutDir: true,
    sourcemap: true,
    // Module scripts are fetched in CORS mode, which browsers refuse for file:// pages. One classic
    // script (IIFE, no chunks) loads from disk as well as from a server.
    modulePreload: false,
    // Vite would otherwise inject the CSS from the IIFE as a <style> element, which the policy forbids.
    cssCodeSplit: false,
    rolldownOptions: {
      input: { index: resolve(rendererRoot, 'index.html') },
      output: { format: 'iife', codeSplitting: false },
    },
  },
});

/** Rewrites Vite's `<script type="module" crossorigin>` tags to match the IIFE output. */
function classicScriptsForFileUrls(): Plugin {
  return {
    name: 'allocscope:classic-scripts-for-file-urls',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        return html
          .replace(/<script type="module" crossorigin /g, '<script defer ')
          .replace(/<link rel="stylesheet" crossorigin /g, '<link rel="stylesheet" ');
      },
    },
  };
}

const demoSnapshotName = 'demo-snapshot.pickle';
const demoSnapshotSource = resolve(import.meta.dirname, 'resources', demoSnapshotName);

/**
 * Ships resources/demo-snapshot.pickle beside index.html, where the page's "Open the demo
 * snapshot" fetches it (the Electron app reads it from resources/ in main instead). Until the
 * file exists the build says so and the button reports it missing.
 */
function demoSnapshotBesideThePage(): Plugin {
  return {
    name: 'allocscope:demo-snapshot',
    generateBundle() {
      if (!existsSync(demoSnapshotSource)) {
        this.warn(`${demoSnapshotSource} not found: the web build ships without the demo snapshot`);
        return;
      }
      this.emitFile({
        type: 'asset',
        fileName: demoSnapshotName,
        source: readFileSync(demoSnapshotSource),
      });
    },
    configureServer(server) {
      server.middlewares.use(`/${demoSnapshotName}`, (_request, response, next) => {
        if (!existsSync(demoSnapshotSource)) return next();
        response.setHeader('Content-Type', 'application/octet-stream');
        createReadStream(demoSnapshotSource).pipe(response);
      });
    },
  };
}

/**
 * Two scripts only `allocscope serve` puts in the page it serves (the page from this build, or
 * from disk, never loads them): served-prestart.js, a few lines that run before the page's bundle
 * and start the decode worker from decode-worker.js, so the worker has loaded and run its script
 * (~0.3 s on a loaded machine) by the time the page asks for the served files. The page's own
 * worker is inline (a blob: URL, for file://); the served one must be a file of its own, built
 * apart because the page is one IIFE (one input). Names without hashes: serve names them in the
 * page it writes (src/cli/serve/web-build.ts: SERVED_PAGE_SCRIPTS).
 */
function servedPageScripts(): Plugin {
  const entries = {
    'served-prestart.js': resolve(rendererRoot, 'prestart/served-prestart.ts'),
    'decode-worker.js': resolve(rendererRoot, 'workers/decode-worker.ts'),
  };
  return {
    name: 'allocscope:served-page-scripts',
    apply: 'build',
    async generateBundle() {
      for (const [fileName, entry] of Object.entries(entries)) {
        const output = (await build({
          configFile: false,
          logLevel: 'silent',
          resolve: { alias: sharedAlias },
          build: {
            write: false,
            minify: true,
            sourcemap: false,
            lib: { entry, formats: ['iife'], name: 'allocscope', fileName: () => fileName },
          },
        })) as Rolldown.RolldownOutput[];
        const chunk = output[0]!.output.find((item) => item.type === 'chunk')!;
        this.emitFile({ type: 'asset', fileName: `assets/${fileName}`, source: chunk.code });
      }
    },
  };
}
