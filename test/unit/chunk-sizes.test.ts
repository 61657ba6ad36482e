// Where the reader's chunk boundaries fall must never change what a file decodes to: the fast
// trace-entry path gives up on an entry cut by a boundary and the generic path takes it, so every
// chunking exercises both. Every real and generated snapshot decodes to the same model at 7 B,
// 64 KiB and 1 MiB chunks, and through the generic path alone; those up to 400 KiB (the six small
// real ones, every generated one) at 1 B chunks too: a boundary after every byte costs an await per
// byte, a minute for the 3.7 MB snapshot on a loaded machine, and the small files hold every kind
// of opcode and entry the large ones do.

import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunksOf } from '../support/analyzed';
import { decodeSnapshot, type DecodeOptions } from '../../src/shared/snapshot/decode-snapshot';
import type { SnapshotModel } from '../../src/shared/snapshot/model';
import { realSnapshotPaths } from '../support/real-snapshots';
import { expectSameValue } from '../support/same-value';

const GENERATED_DIR = resolve(import.meta.dirname, '../.generated');
const CHUNK_SIZES = [1 << 16, 7, 1];
const CHUNKS_OF_1_UP_TO_BYTES = 400 << 10;

function decode(
  bytes: Uint8Array,
  size: number,
  options: DecodeOptions = {},
): Promise<SnapshotModel> {
  return decodeSnapshot(chunksOf(bytes, size), { totalBytes: bytes.length, ...options });
}

function generatedPaths(): string[] {
  return readdirSync(GENERATED_DIR)
    .filter((name) => !name.endsWith('.json'))
    .sort()
    .map((name) => join(GENERATED_DIR, name));
}

describe.each([...realSnapshotPaths(), ...generatedPaths()].map((path) => [basename(path), path]))(
  '%s',
  (_name, path) => {
    const bytes = new Uint8Array(readFileSync(path));

    const sizes = CHUNK_SIZES.filter(
      (size) => size !== 1 || bytes.length <= CHUNKS_OF_1_UP_TO_BYTES,
    );
    it(`decodes to the same model at 1 MiB and ${sizes.join(', ')} B chunks, and through the generic path`, async () => {
      const reference = await decode(bytes, 1 << 20);
      expect(reference.warnings).toBeDefined();
      for (const size of sizes)
        expectSameValue(await decode(bytes, size), reference, `chunks of ${size} B`);
      expectSameValue(await decode(bytes, 1 << 20, { fastTraceEntries: false }), reference);
    }, 120_000);
  },
);
