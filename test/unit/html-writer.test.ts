// The page `allocscope html` writes, read back as the page reads it: its chunks decode to the
// exact bytes carried (a real snapshot, gzip-compressed by the writer, and a gzip file kept as it
// is, across several chunks), its header and end record say what they should, and a hostile file
// name stays text everywhere.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  CHUNK_BYTES,
  EMBEDDED_SNAPSHOT_SCHEMA,
  embeddedEndSchema,
  embeddedHeaderSchema,
} from '@shared/report/html-embedding';
import { escapeHtml, writeHtmlPage } from '../../src/cli/html/write-html-page';
import { realSnapshotPath } from '../support/real-snapshots';

const TEMPLATE = `<!doctype html>
<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'" />
<title>allocscope</title></head>
<body><div id="root"></div>
</body>
</html>
`;

/** The page written for these bytes, split into many pieces as a file stream would hand them. */
async function pageOf(bytes: Uint8Array, fileName = 'run.pickle'): Promise<string> {
  const out = new PassThrough();
  const written: Buffer[] = [];
  out.on('data', (data: Buffer) => written.push(data));
  await writeHtmlPage({
    template: TEMPLATE,
    bytes: (async function* () {
      // Odd piece sizes, so chunk boundaries fall inside pieces.
      for (let at = 0; at < bytes.length; at += 65_537) yield bytes.subarray(at, at + 65_537);
    })(),
    header: { fileName, fileBytes: bytes.length, opening: null },
    out,
  });
  return Buffer.concat(written).toString('utf8');
}

/** What the page carries, read back the way the page does (independent of the writer's code). */
function readBack(page: string) {
  const json = (id: string): unknown =>
    JSON.parse(
      new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(page)![1]!,
    );
  const chunks = [
    ...page.matchAll(
      /<script type="application\/octet-stream" data-allocscope-chunk="(\d+)">([A-Za-z0-9+/=]*)<\/script>/g,
    ),
  ];
  expect(chunks.map((match) => Number(match[1]))).toEqual(chunks.map((_, index) => index));
  const pieces = chunks.map((match) => Buffer.from(match[2]!, 'base64'));
  return {
    header: embeddedHeaderSchema.parse(json('allocscope-snapshot')),
    end: embeddedEndSchema.parse(json('allocscope-snapshot-end')),
    pieces,
    carried: Buffer.concat(pieces),
  };
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('allocscope html: the snapshot inside the page', () => {
  it('carries a real pickle gzip-compressed, unpacking to its exact bytes', async () => {
    const original = readFileSync(realSnapshotPath('LINYUNLinYun'));
    const { header, end, carried } = readBack(await pageOf(original));
    expect(header).toEqual({
      schema: EMBEDDED_SNAPSHOT_SCHEMA,
      fileName: 'run.pickle',
      fileBytes: original.length,
      opening: null,
    });
    expect(gunzipSync(carried).equals(original)).toBe(true);
    expect(end).toEqual({
      chunks: Math.ceil(carried.length / CHUNK_BYTES),
      embeddedBytes: carried.length,
      compressedByAllocscope: true,
      sha256: sha256(original),
    });
    // Compressed: a snapshot's page is smaller than its pickle.
    expect(carried.length).toBeLessThan(original.length / 2);
  });

  it('keeps a gzip file byte for byte, across several chunks of exactly CHUNK_BYTES', async () => {
    // A real snapshot, gzip-compressed, with incompressible bytes stored after it in the member
    // (level 0 for the tail): large enough for three chunks.
    const pickle = readFileSync(realSnapshotPath('LINYUNLinYun'));
    const noise = createHash('sha512');
    const filler = Buffer.alloc(2 * CHUNK_BYTES + 12_345);
    for (let at = 0; at < filler.length; at += 64)
      noise.copy().update(String(at)).digest().copy(filler, at);
    const original = gzipSync(Buffer.concat([pickle, filler]), { level: 1 });
    expect(original.length).toBeGreaterThan(2 * CHUNK_BYTES);
    const { end, pieces, carried } = readBack(await pageOf(original));
    expect(carried.equals(original)).toBe(true);
    expect(pieces.slice(0, -1).every((piece) => piece.length === CHUNK_BYTES)).toBe(true);
    expect(end.chunks).toBe(pieces.length);
    expect(end.chunks).toBe(Math.ceil(original.length / CHUNK_BYTES));
    expect(end.compressedByAllocscope).toBe(false);
    expect(end.sha256).toBe(sha256(original));
  });

  it('an empty file is an empty gzip member, not a page without its end', async () => {
    const { end, carried } = readBack(await pageOf(new Uint8Array(0)));
    expect(gunzipSync(carried).length).toBe(0);
    expect(end.embeddedBytes).toBe(carried.length);
  });

  it('a file name with markup and control characters stays text', async () => {
    const name = 'a</script><b>x</b>\u0007\n"\'&.pickle';
    const page = await pageOf(readFileSync(realSnapshotPath('angelolmn')), name);
    // Nothing of the name became markup: no <b> element, and the page's own elements intact.
    expect(page).not.toContain('<b>');
    expect(page.match(/<\/script>/g)?.length).toBe(page.match(/<script\b/g)?.length);
    expect(page).toContain(
      '<title>a&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;\uFFFD\uFFFD&quot;&#39;&amp;.pickle · allocscope</title>',
    );
    // The header gives the name back exactly.
    expect(readBack(page).header.fileName).toBe(name);
  });

  it('escapeHtml replaces what HTML would read as markup', () => {
    expect(escapeHtml(`<a href="x">&'\u0000\u009f`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&amp;&#39;\uFFFD\uFFFD',
    );
  });
});
