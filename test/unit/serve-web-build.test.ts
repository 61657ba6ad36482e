// The page `allocscope serve` serves: index.html with the marker and, when the web build has them,
// the script that starts the decode worker ahead of the page's bundle (the worker's own file
// beside it). Both come through the server's one path for the build's files (token and all); a
// build without them serves the page as before; the page's policy is never touched.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe } from '../../src/cli/serve/run-serve';
import { loadWebBuild, SERVED_PAGE_SCRIPTS, servedPageOf } from '../../src/cli/serve/web-build';

const POLICY = "default-src 'self'; script-src 'self'; worker-src 'self' blob:";
const INDEX = [
  '<!doctype html>',
  '<html lang="en">',
  '  <head>',
  `    <meta http-equiv="Content-Security-Policy" content="${POLICY}" />`,
  '    <script defer src="./assets/index-abc.js"></script>',
  '  </head>',
  '  <body><div id="root"></div></body>',
  '</html>',
  '',
].join('\n');
const MARKER = '<meta name="allocscope-served" content="served.json" />';
const PRESTART_TAG = '<script src="./assets/served-prestart.js"></script>';

const directory = mkdtempSync(join(tmpdir(), 'allocscope-serve-web-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A web build with index.html and the given files of SERVED_PAGE_SCRIPTS. */
function webBuild(name: string, scripts: readonly string[]): string {
  const root = join(directory, name);
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'void 0;\n');
  for (const script of scripts) writeFileSync(join(root, script), `// ${script}\n`);
  return root;
}

describe('servedPageOf', () => {
  it('puts the marker and then the prestart script first in <head>, ahead of the bundle', () => {
    const page = servedPageOf(INDEX, true);
    expect(page).toBe(INDEX.replace('<head>', `<head>\n    ${MARKER}\n    ${PRESTART_TAG}`));
    // A classic script, neither deferred nor async: it runs as soon as it is parsed.
    expect(page.indexOf(PRESTART_TAG)).toBeLessThan(page.indexOf('assets/index-abc.js'));
  });

  it('puts only the marker without the scripts, and changes nothing else', () => {
    const page = servedPageOf(INDEX, false);
    expect(page).toBe(INDEX.replace('<head>', `<head>\n    ${MARKER}`));
    expect(page).not.toContain('served-prestart');
  });
});

describe('loadWebBuild', () => {
  it('serves the prestart script only when the build has it and the worker beside it', () => {
    const both = Object.values(SERVED_PAGE_SCRIPTS);
    expect(loadWebBuild(webBuild('both', both)).servedPage.toString()).toContain(PRESTART_TAG);
    for (const [index, only] of both.entries()) {
      const page = loadWebBuild(webBuild(`only-${index}`, [only])).servedPage.toString();
      expect(page).toContain(MARKER);
      expect(page).not.toContain('<script src=');
    }
    // The policy the server sends is the page's, whichever page it serves.
    expect(loadWebBuild(webBuild('none', [])).contentSecurityPolicy).toBe(POLICY);
  });

  it('hands both scripts out through the token, like every file of the build', async () => {
    const root = webBuild('served', Object.values(SERVED_PAGE_SCRIPTS));
    const snapshot = join(directory, 'run.pickle');
    writeFileSync(snapshot, 'bytes');
    const server = await startServe({ paths: [snapshot], port: 0, host: '127.0.0.1' }, root);
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const page = await fetch(`${base}/${server.token}/`);
      expect(await page.text()).toContain(PRESTART_TAG);
      for (const script of Object.values(SERVED_PAGE_SCRIPTS)) {
        const answer = await fetch(`${base}/${server.token}/${script}`);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
        expect(answer.headers.get('content-security-policy')).toBe(
          `${POLICY}; frame-ancestors 'none'`,
        );
        expect(await answer.text()).toBe(`// ${script}\n`);
        const refused = await fetch(`${base}/${'x'.repeat(server.token.length)}/${script}`);
        expect(refused.status).toBe(403);
        expect(await refused.text()).toBe('Forbidden\n');
      }
    } finally {
      server.server.closeAllConnections();
      await new Promise((done) => server.server.close(done));
    }
  });
});
