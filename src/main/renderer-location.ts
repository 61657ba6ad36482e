import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserWindow } from 'electron';

// Where the page comes from: the electron-vite dev server while developing, the built files on
// disk otherwise. Security checks use the same answer to tell our page from anything else.

const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
const rendererIndexPath = join(import.meta.dirname, '../renderer/index.html');
const rendererDirectoryUrl = pathToFileURL(join(import.meta.dirname, '../renderer/')).href;

/** True under `electron-vite dev`: enables reload and devtools, and lets the page reach the server. */
export const isDevServer = devServerUrl !== undefined && devServerUrl !== '';

export function loadRenderer(window: BrowserWindow): Promise<void> {
  return isDevServer ? window.loadURL(devServerUrl!) : window.loadFile(rendererIndexPath);
}

/** Is this URL our own page (or one of its files), as opposed to anything else? */
export function isRendererUrl(url: string): boolean {
  if (isDevServer) return sameOrigin(url, devServerUrl!);
  return url.startsWith(rendererDirectoryUrl);
}

/** Origins other than file: that the page may load from (only the dev server, in development). */
export function allowedDevOrigins(): string[] {
  if (!isDevServer) return [];
  const http = new URL(devServerUrl!);
  const socket = new URL(devServerUrl!);
  socket.protocol = http.protocol === 'https:' ? 'wss:' : 'ws:';
  return [http.origin, socket.origin];
}

function sameOrigin(url: string, reference: string): boolean {
  try {
    return new URL(url).origin === new URL(reference).origin;
  } catch {
    return false;
  }
}
