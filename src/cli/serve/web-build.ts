// The web build `allocscope serve` hands out: out/web beside out/cli, in the repository as in the
// installed package (whose `files` carry it). Its page is served with a marker that tells it it
// is served, so it asks for served.json; the static build and file:// never ask.

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
  const marker = `<meta name="${SERVED_MARKER_NAME}" content="${SERVED_MANIFEST_FILE}" />`;
  if (!/<head>/i.test(html)) throw new Error(`${index} has no <head>`);
  return {
    root: realpathSync(directory),
    servedPage: Buffer.from(html.replace(/<head>/i, (head) => `${head}\n    ${marker}`)),
    contentSecurityPolicy: policy[1]!.replace(/\s+/g, ' ').trim(),
  };
}
