// `allocscope serve`'s server, in-process on a free loopback port, against a web build and files
// made here: only the token's requests are answered; only the listed files and the web build's
// own files can be fetched (no `..`, raw or escaped, no link out of a folder or of the build, no
// file swapped for a link after the start), and refusals name nothing; ranges give the file's
// exact slice; HEAD; the Host header of a rebinding site is refused.

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type StartedServer } from '../../src/cli/serve/run-serve';
import { servedManifestSchema, type ServedManifest } from '../../src/shared/report/served-manifest';
import type { ServedFiles } from '../../src/cli/serve/served-files';

const directory = mkdtempSync(join(tmpdir(), 'allocscope-serve-http-'));
const web = join(directory, 'web');
const folder = join(directory, 'job');
const secret = join(directory, 'secret.pickle');
const SECRET_TEXT = 'SECRET-BYTES-NOT-TO-BE-SERVED';
const POLICY = "default-src 'self'; script-src 'self'";
const single = join(directory, 'alone.pickle');
const singleBytes = randomBytes(100_000);

let server: StartedServer & ServedFiles;
let manifest: ServedManifest;

beforeAll(async () => {
  mkdirSync(join(web, 'assets'), { recursive: true });
  writeFileSync(
    join(web, 'index.html'),
    `<!doctype html>\n<html>\n  <head>\n    <meta http-equiv="Content-Security-Policy" content="${POLICY}" />\n  </head>\n  <body></body>\n</html>\n`,
  );
  writeFileSync(join(web, 'assets', 'app.js'), 'console.log(1);\n');
  symlinkSync(secret, join(web, 'assets', 'leak.js'));
  writeFileSync(secret, SECRET_TEXT);
  writeFileSync(single, singleBytes);
  mkdirSync(folder);
  mkdirSync(join(folder, 'logs'));
  writeFileSync(join(folder, 'rank0.pickle'), 'rank zero');
  writeFileSync(join(folder, 'rank1.pkl.gz'), 'rank one');
  writeFileSync(join(folder, 'swap.pickle'), 'replaced after the start');
  writeFileSync(join(folder, 'notes.txt'), 'not a snapshot');
  writeFileSync(join(folder, '.hidden.pickle'), 'a dot file');
  writeFileSync(join(folder, 'logs', 'rank5.pickle'), 'in a sub-folder');
  symlinkSync(secret, join(folder, 'out.pickle'));
  symlinkSync(join(folder, 'rank0.pickle'), join(folder, 'same.pickle'));
  server = await startServe({ paths: [single, folder], port: 0, host: '127.0.0.1' }, web);
  manifest = servedManifestSchema.parse(JSON.parse((await get('served.json')).body.toString()));
});

afterAll(async () => {
  server.server.closeAllConnections();
  await new Promise((done) => server.server.close(done));
  rmSync(directory, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request with the path exactly as given (fetch would resolve `..` before sending it). */
function raw(
  path: string,
  options: { method?: string; headers?: Record<string, string>; setHost?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        setHost: options.setHost ?? true,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** Under the token. */
function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return raw(`/${server.token}/${path}`, { headers });
}

function idOf(name: string): string {
  const file = manifest.files.find((candidate) => candidate.name === name);
  if (file === undefined) throw new Error(`${name} not served`);
  return file.id;
}

/** A refusal: its status, and a body that names no file, no folder and no token. */
function expectRefusal(answer: Answer, status: number): void {
  expect(answer.status).toBe(status);
  const body = answer.body.toString();
  expect(body).toMatch(/^(Forbidden|Not found|Method not allowed)\n$/);
  expect(answer.headers['content-length']).toBe(String(answer.body.length));
  expectSecurityHeaders(answer);
}

function expectSecurityHeaders(answer: Answer): void {
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers['referrer-policy']).toBe('no-referrer');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['content-security-policy']).toBe(`${POLICY}; frame-ancestors 'none'`);
}

describe('allocscope serve: what it serves', () => {
  it('lists exactly the file named and the snapshot files directly in the folder', () => {
    expect(manifest.host.length).toBeGreaterThan(0);
    expect(manifest.files.map(({ name, path, group }) => ({ name, path, group }))).toEqual([
      { name: 'alone.pickle', path: single, group: null },
      // In name order; the dot file, the text, the sub-folder's and the link out are not.
      { name: 'rank0.pickle', path: join(folder, 'rank0.pickle'), group: folder },
      { name: 'rank1.pkl.gz', path: join(folder, 'rank1.pkl.gz'), group: folder },
      { name: 'same.pickle', path: join(folder, 'same.pickle'), group: folder },
      { name: 'swap.pickle', path: join(folder, 'swap.pickle'), group: folder },
    ]);
    expect(manifest.files.find((file) => file.name === 'alone.pickle')!.sizeBytes).toBe(100_000);
    expect(server.leftOut).toEqual([
      { path: join(folder, 'out.pickle'), why: 'a symbolic link out of the folder' },
    ]);
  });

  it('serves the page with the marker, its files, and each listed file by id', async () => {
    const page = await get('');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body.toString()).toContain(
      '<meta name="allocscope-served" content="served.json" />',
    );
    expectSecurityHeaders(page);
    expect((await get('index.html')).body).toEqual(page.body);
    const script = await get('assets/app.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body.toString()).toBe('console.log(1);\n');

    const whole = await get(`files/${idOf('alone.pickle')}`);
    expect(whole.status).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-length']).toBe('100000');
    expect(whole.headers['content-type']).toBe('application/octet-stream');
    expect(whole.body.equals(singleBytes)).toBe(true);
    expectSecurityHeaders(whole);
    expect((await get(`files/${idOf('same.pickle')}`)).body.toString()).toBe('rank zero');
  });

  it('sends the range asked for: the exact slice of the file', async () => {
    const id = idOf('alone.pickle');
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=10-99', 10, 99],
      ['bytes=99000-', 99_000, 99_999],
      ['bytes=-4', 99_996, 99_999],
      ['bytes=50000-200000', 50_000, 99_999],
      ['bytes=-1000000', 0, 99_999],
    ];
    for (const [range, start, end] of cases) {
      const answer = await get(`files/${id}`, { Range: range });
      expect(answer.status, range).toBe(206);
      expect(answer.headers['content-range'], range).toBe(`bytes ${start}-${end}/100000`);
      expect(answer.headers['content-length'], range).toBe(String(end - start + 1));
      expect(answer.body.equals(singleBytes.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers 416 for a range past the end, and ignores ranges it does not serve', async () => {
    const id = idOf('alone.pickle');
    for (const range of ['bytes=100000-', 'bytes=200000-300000', 'bytes=-0']) {
      const answer = await get(`files/${id}`, { Range: range });
      expect(answer.status, range).toBe(416);
      expect(answer.headers['content-range'], range).toBe('bytes */100000');
      expect(answer.body.toString()).toBe('Range not satisfiable\n');
    }
    // Several ranges, a reversed one, another unit: the whole file (RFC 9110 allows ignoring).
    for (const range of ['bytes=0-1,5-6', 'bytes=9-3', 'items=0-1']) {
      const answer = await get(`files/${id}`, { Range: range });
      expect(answer.status, range).toBe(200);
      expect(answer.body.length, range).toBe(100_000);
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const id = idOf('alone.pickle');
    const head = await raw(`/${server.token}/files/${id}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('100000');
    expect(head.headers['accept-ranges']).toBe('bytes');
    expect(head.body.length).toBe(0);
    const part = await raw(`/${server.token}/files/${id}`, {
      method: 'HEAD',
      headers: { Range: 'bytes=5-9' },
    });
    expect(part.status).toBe(206);
    expect(part.headers['content-length']).toBe('5');
    expect(part.body.length).toBe(0);
  });

  it('redirects the token without its slash to the page (its relative URLs need it)', async () => {
    const answer = await raw(`/${server.token}`);
    expect(answer.status).toBe(308);
    expect(answer.headers.location).toBe(`./${server.token}/`);
  });
});

describe('allocscope serve: what it refuses', () => {
  it('refuses every request without the token, or with a wrong one: 403, nothing listed', async () => {
    const wrong = randomBytes(32).toString('base64url');
    const paths = [
      '/',
      '/index.html',
      '/served.json',
      `/files/${idOf('alone.pickle')}`,
      '/assets/app.js',
      `/${wrong}/`,
      `/${wrong}/served.json`,
      `/${wrong}/files/0`,
      `/${server.token.slice(0, -1)}/served.json`,
      `/${server.token}x/served.json`,
      `/${server.token.toUpperCase()}/served.json`,
      `//${server.token}/served.json`,
    ];
    for (const path of paths) {
      const answer = await raw(path);
      expectRefusal(answer, 403);
      expect(answer.body.toString()).not.toContain(server.token);
    }
  });

  it('refuses any other path under the token: 404, nothing listed', async () => {
    const id = idOf('alone.pickle');
    const paths = [
      'secret.pickle',
      'files/',
      'files/99',
      'files/alone.pickle',
      `files/${id}/`,
      `files/0${id}`,
      `files/${id}/x`,
      'files/-1',
      'assets/',
      'assets',
      'assets/missing.js',
      'assets/leak.js',
      'Index.html',
      '.hidden',
      // `..`, raw and escaped in every way a client may send it.
      '../secret.pickle',
      '../../secret.pickle',
      'assets/../../secret.pickle',
      '%2e%2e/secret.pickle',
      '%2E%2E/secret.pickle',
      '%2e%2e%2fsecret.pickle',
      'assets/%2e%2e/%2e%2e/secret.pickle',
      '..%2fsecret.pickle',
      '..%5csecret.pickle',
      'files/..%2f..%2fsecret.pickle',
      `files/${id}%2f..%2f..%2fsecret.pickle`,
      '.%2e/secret.pickle',
      `%00`,
    ];
    for (const path of paths) {
      const answer = await get(path);
      expectRefusal(answer, 404);
      expect(answer.body.toString()).not.toContain(SECRET_TEXT);
    }
  });

  it('refuses a listed file replaced by a link out of its folder, or gone, after the start', async () => {
    const swapped = join(folder, 'swap.pickle');
    const id = idOf('swap.pickle');
    expect((await get(`files/${id}`)).body.toString()).toBe('replaced after the start');
    unlinkSync(swapped);
    symlinkSync(secret, swapped);
    expectRefusal(await get(`files/${id}`), 404);
    expectRefusal(await get(`files/${id}`, { Range: 'bytes=0-3' }), 404);
    unlinkSync(swapped);
    expectRefusal(await get(`files/${id}`), 404);
    // Back as it was: served again (the check is at each request).
    writeFileSync(swapped, 'back');
    expect((await get(`files/${id}`)).body.toString()).toBe('back');
  });

  it('refuses a Host header that names no loopback host (DNS rebinding): 403', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${server.port}`,
      '10.0.0.1',
      '127.0.0.1.nip.io',
    ]) {
      const answer = await raw(`/${server.token}/served.json`, { headers: { Host: host } });
      expectRefusal(answer, 403);
    }
    // No Host at all: Node's server refuses it before us (400).
    const noHost = await raw(`/${server.token}/served.json`, { setHost: false });
    expect(noHost.status).toBe(400);
    expect(noHost.body.toString()).not.toContain('alone.pickle');
    // The loopback names, on any port (ssh -L may forward another local port).
    for (const host of [`127.0.0.1:${server.port}`, 'localhost:9000', '[::1]:7317', 'LOCALHOST']) {
      const answer = await raw(`/${server.token}/served.json`, { headers: { Host: host } });
      expect(answer.status, host).toBe(200);
    }
  });

  it('answers only GET and HEAD', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const answer = await raw(`/${server.token}/served.json`, { method });
      expectRefusal(answer, 405);
      expect(answer.headers.allow).toBe('GET, HEAD');
    }
    // Without the token, a method is no way in either.
    expectRefusal(await raw('/served.json', { method: 'POST' }), 403);
  });
});
