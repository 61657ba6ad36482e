// `allocscope serve` sends a file in several reads (1 MiB each, src/cli/serve/serve-http.ts): a
// file of a few MiB arrives whole and exact, and so does every range, whether it starts, ends or
// stays inside one read, or spans several. Checked against the file's own bytes.

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type StartedServer } from '../../src/cli/serve/run-serve';
import { servedManifestSchema } from '../../src/shared/report/served-manifest';

const MIB = 1 << 20;
const directory = mkdtempSync(join(tmpdir(), 'allocscope-serve-large-'));
const web = join(directory, 'web');
const file = join(directory, 'large.pickle');
// Not a whole number of reads: the last one is short.
const bytes = randomBytes(3 * MIB + 12_345);

let server: StartedServer;
let fileUrl: string;

beforeAll(async () => {
  mkdirSync(web);
  writeFileSync(
    join(web, 'index.html'),
    `<!doctype html>\n<html>\n  <head>\n    <meta http-equiv="Content-Security-Policy" content="default-src 'self'" />\n  </head>\n  <body></body>\n</html>\n`,
  );
  writeFileSync(file, bytes);
  server = await startServe({ paths: [file], port: 0, host: '127.0.0.1' }, web);
  const base = `http://127.0.0.1:${server.port}/${server.token}/`;
  const manifest = servedManifestSchema.parse(await (await fetch(`${base}served.json`)).json());
  fileUrl = `${base}files/${manifest.files[0]!.id}`;
});

afterAll(async () => {
  server.server.closeAllConnections();
  await new Promise((done) => server.server.close(done));
  rmSync(directory, { recursive: true, force: true });
});

describe('a file larger than one read', () => {
  it('arrives whole, byte for byte', async () => {
    const answer = await fetch(fileUrl);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await answer.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('sends each range exactly, across read boundaries too', async () => {
    const last = bytes.length - 1;
    const cases: [string, number, number][] = [
      [`bytes=${MIB - 1}-${MIB}`, MIB - 1, MIB], // the two bytes around the first boundary
      [`bytes=${MIB}-${2 * MIB - 1}`, MIB, 2 * MIB - 1], // one read's worth, on its boundaries
      [`bytes=10-${2 * MIB + 5}`, 10, 2 * MIB + 5], // across two boundaries
      [`bytes=${MIB + 7}-`, MIB + 7, last], // from inside one read to the end
      [`bytes=-${MIB + 3}`, bytes.length - MIB - 3, last], // the last bytes, over a boundary
      [`bytes=100-200`, 100, 200], // inside the first read
    ];
    for (const [range, start, end] of cases) {
      const answer = await fetch(fileUrl, { headers: { Range: range } });
      expect(answer.status, range).toBe(206);
      expect(answer.headers.get('content-range'), range).toBe(
        `bytes ${start}-${end}/${bytes.length}`,
      );
      const body = Buffer.from(await answer.arrayBuffer());
      expect(body.length, range).toBe(end - start + 1);
      expect(body.equals(bytes.subarray(start, end + 1)), range).toBe(true);
    }
  });
});
