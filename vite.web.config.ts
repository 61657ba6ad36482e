import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { rendererPlugins, rendererRoot, sharedAlias } from './vite.renderer.config.js';

// The renderer as a static site: relative URLs everywhere, so out/web/ works from any static file
// server, under any sub-path, and straight from disk (file://).
export default defineConfig({
  root: rendererRoot,
  base: './',
  resolve: { alias: sharedAlias },
  plugins: [...rendererPlugins(), classicScriptsForFileUrls(), demoSnapshotBesideThePage()],
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
