import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin, PluginOption } from 'vite';

// Renderer settings shared by the Electron build (electron.vite.config.ts) and the static web
// build (vite.web.config.ts), so both ship the same page.

export const rendererRoot = resolve(import.meta.dirname, 'src/renderer');

export const sharedAlias = { '@shared': resolve(import.meta.dirname, 'src/shared') };

export function rendererPlugins(): PluginOption[] {
  return [react(), relaxContentSecurityPolicyForDevServer()];
}

/**
 * The dev server needs what the built page must never get: React Refresh's inline preamble,
 * CSS injected as <style> elements and the HMR websocket. Only `vite serve` sees this plugin;
 * built pages keep index.html's policy byte for byte.
 */
function relaxContentSecurityPolicyForDevServer(): Plugin {
  return {
    name: 'allocscope:dev-content-security-policy',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace(
        /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/,
        (_match, start: string, policy: string, end: string) =>
          start +
          policy
            .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
            .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
            .replace("connect-src 'self'", "connect-src 'self' ws: wss:") +
          end,
      );
    },
  };
}
