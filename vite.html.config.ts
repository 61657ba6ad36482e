import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { rendererPlugins, rendererRoot, sharedAlias } from './vite.renderer.config.js';
import { reportPolicyOf, withReportPolicy } from './src/cli/html/page-policy.js';

// The viewer as one HTML file, the template of `allocscope html` (src/cli/run-html.ts): the
// page's script and styles inline (vite-plugin-singlefile), its decode worker inline already
// (a blob: worker, page-decoder.ts), its favicon a data: URL, and its policy naming the inline
// code by hash. Written beside the CLI bundle, where the CLI finds it at run time and the npm
// package ships it: run after vite.cli.config.ts, which empties out/cli.
export const VIEWER_TEMPLATE_NAME = 'viewer.html';

export default defineConfig({
  root: rendererRoot,
  base: './',
  resolve: { alias: sharedAlias },
  // The favicon is the only file in public/: inlined below instead of copied.
  publicDir: false,
  plugins: [
    ...rendererPlugins(),
    viteSingleFile({ outputFileName: VIEWER_TEMPLATE_NAME }),
    faviconAsDataUrl(),
    policyByHash(),
  ],
  build: {
    outDir: resolve(import.meta.dirname, 'out/cli/assets'),
    // Shared with whatever else the CLI ships there.
    emptyOutDir: false,
    sourcemap: false,
    modulePreload: false,
    rolldownOptions: {
      input: { index: resolve(rendererRoot, 'index.html') },
      // One script, as in the web build. It stays type="module" (inline, so no CORS fetch from
      // file://): module scripts run after the document is parsed, the embedded snapshot included.
      output: { format: 'iife', codeSplitting: false },
    },
  },
});

/** The icon beside the web build's page, here inside it: the tab's favicon and the page's logo. */
function faviconAsDataUrl(): Plugin {
  const svg = readFileSync(resolve(rendererRoot, 'public/favicon.svg'));
  const dataUrl = `data:image/svg+xml;base64,${svg.toString('base64')}`;
  return {
    name: 'allocscope:favicon-as-data-url',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => html.replace('href="./favicon.svg"', `href="${dataUrl}"`),
    },
    // The page's logo (app.tsx, welcome-view.tsx) is the same file, named in the code.
    renderChunk: (code) => code.replaceAll('./favicon.svg', dataUrl),
  };
}

/** After the inlining: the policy allows exactly the inline script and style, by hash. */
function policyByHash(): Plugin {
  return {
    name: 'allocscope:policy-by-hash',
    apply: 'build',
    enforce: 'post',
    // A placeholder until the code is inline (so the inliner sees hashes, not a policy that
    // forbids inline code, and does not warn); replaced by the real hashes below.
    transformIndexHtml: {
      order: 'pre',
      handler: (html) =>
        html.replace(
          /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/,
          (_match, start: string, end: string) =>
            start +
            reportPolicyOf({ scripts: ["'sha256-pending'"], styles: ["'sha256-pending'"] }) +
            end,
        ),
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const page = bundle[VIEWER_TEMPLATE_NAME];
        if (page?.type !== 'asset' || typeof page.source !== 'string')
          this.error(`${VIEWER_TEMPLATE_NAME} was not made`);
        page.source = withReportPolicy(page.source);
      },
    },
  };
}
