// Main's hand-over reads a file to the size it had when opened, on the real file system: a .gz
// snapshot appended to while the page reads it (a file still being written) decodes as it was,
// where the bytes added after the gzip member would be refused (docs/bad-input.md).

import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tinySnapshot } from '../../test/support/hostile-files';
import { chunksOf } from '../../test/support/analyzed';
import { decodeSnapshot } from '../shared/snapshot/decode-snapshot';
import {
  nodeSnapshotFileSystem,
  READ_CHUNK_BYTES,
  respondToSnapshotRequest,
} from './snapshot-protocol';
import { createSnapshotTokenTable } from './snapshot-tokens';
import { snapshotUrlOf } from './snapshot-url';

let directory = '';

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'allocscope-growing-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function* bodyOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
}

it('hands over a .gz appended to meanwhile as it was when opened', async () => {
  // Larger than one read, so that bytes are still to be read when the file grows.
  const pickle = tinySnapshot((snapshot) => {
    snapshot.padding = 'x'.repeat(3 * READ_CHUNK_BYTES);
  });
  const packed = gzipSync(pickle, { level: 0 });
  expect(packed.length).toBeGreaterThan(2 * READ_CHUNK_BYTES);
  const path = join(directory, 'run.pickle.gz');
  await writeFile(path, packed);
  const tokens = createSnapshotTokenTable();
  const url = snapshotUrlOf(tokens.issue({ path, fileName: 'run.pickle.gz' }, 1));

  const response = await respondToSnapshotRequest(
    { method: 'GET', url },
    tokens,
    nodeSnapshotFileSystem,
  );
  expect(response.headers['Content-Length']).toBe(String(packed.length));
  await appendFile(path, new TextEncoder().encode('written after the open\n'.repeat(1000)));

  const model = await decodeSnapshot(bodyOf(response.body as ReadableStream<Uint8Array>), {
    totalBytes: packed.length,
  });
  expect(model).toEqual(await decodeSnapshot(chunksOf(pickle, READ_CHUNK_BYTES)));
});
