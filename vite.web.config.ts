import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { rendererPlugins, rendererRoot, sharedAlias } from './vite.renderer.config.js';

// The renderer as a static site: relative URLs everywhere, so out/web/ works from any static file
// server, under any sub-path, and straight from disk (file://).
export default defineConfig({
  root: rendererRoot,
  base: './',
  resolve: { alias: sharedAlias },
  plugins: [...rendererPlugins(), classicScriptsForFileUrls()],
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
