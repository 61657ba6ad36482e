// The web build `allocscope serve` hands out: out/web beside out/cli, in the repository as in the
// installed package (whose `files` carry it). Its page is served with a marker that tells it it
// is served, so it asks for served.json; the static build and file:// never ask. Ahead of the
// page's bundle it also gets the script that starts the decode worker (SERVED_PAGE_SCRIPTS), when
// the build has it: by the time the page asks for the files, the worker has loaded.

import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVED_MANIFEST_FILE, SERVED_MARKER_NAME } from '@shared/report/served-manifest';
import { UsageError } from '../cli-options';

export interface WebBuild {
  /** out/web, its real path. */
  readonly root: string;
  /** index.html with the marker. */
  readonly servedPage: Buffer;
  /** The policy of the page's meta tag, sent as a header with every response. */
  readonly contentSecurityPolicy: string;
}

/**
 * The package's out/web: the closest folder above this module with a package.json (this module is
 * src/cli/serve in the repository, out/cli or out/cli/assets once built) holds it.
 */
export function findWebBuild(start = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'out', 'web');
    if (dirname(dir) === dir) return join(start, 'out', 'web');
  }
}

/**
 * The scripts of the web build only the served page loads (vite.web.config.ts builds them): the
 * one its <head> runs before the bundle, and the decode worker that one starts from beside it.
 */
export const SERVED_PAGE_SCRIPTS = {
  prestart: 'assets/served-prestart.js',
  decodeWorker: 'assets/decode-worker.js',
} as const;

/**
 * index.html as served: the marker first thing in <head> and, when the build has its scripts,
 * the script that starts the decode worker (a classic script in <head> runs as soon as it is
 * parsed, ahead of the bundle, which is deferred). A file of the build, not an inline script:
 * the page's policy (script-src 'self') stays as it is.
 */
export function servedPageOf(html: string, withPrestart: boolean): string {
  const marker = `<meta name="${SERVED_MARKER_NAME}" content="${SERVED_MANIFEST_FILE}" />`;
  const prestart = withPrestart
    ? `\n    <script src="./${SERVED_PAGE_SCRIPTS.prestart}"></script>`
    : '';
  return html.replace(/<head>/i, (head) => `${head}\n    ${marker}${prestart}`);
}

export function loadWebBuild(directory: string): WebBuild {
  const index = join(directory, 'index.html');
  let html: string;
  try {
    html = readFileSync(index, 'utf8');
  } catch {
    throw new UsageError(
      `the web build is missing (${index}); in a clone of allocscope, run npm run build:web`,
    );
  }
  const policy = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html);
  if (policy === null) throw new Error(`${index} has no Content-Security-Policy meta tag`);
  if (!/<head>/i.test(html)) throw new Error(`${index} has no <head>`);
  // A build from before these scripts (or one without them) serves its page as it always did.
  const withPrestart = Object.values(SERVED_PAGE_SCRIPTS).every((file) =>
    existsSync(join(directory, file)),
  );
  return {
    root: realpathSync(directory),
    servedPage: Buffer.from(servedPageOf(html, withPrestart)),
    contentSecurityPolicy: policy[1]!.replace(/\s+/g, ' ').trim(),
  };
}
