// Where the reader's chunk boundaries fall must never change what a file decodes to: the fast
// trace-entry path gives up on an entry cut by a boundary and the generic path takes it, so every
// chunking exercises both. Every real and generated snapshot decodes to the same model at 1 B,
// 7 B, 64 KiB and 1 MiB chunks, and through the generic path alone.

import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunksOf } from '../support/analyzed';
import { decodeSnapshot, type DecodeOptions } from '../../src/shared/snapshot/decode-snapshot';
import type { SnapshotModel } from '../../src/shared/snapshot/model';
import { realSnapshotPaths } from '../support/real-snapshots';

const GENERATED_DIR = resolve(import.meta.dirname, '../.generated');
const CHUNK_SIZES = [1 << 16, 7, 1];

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

    it('decodes to the same model at 1 MiB, 64 KiB, 7 B and 1 B chunks, and through the generic path', async () => {
      const reference = await decode(bytes, 1 << 20);
      expect(reference.warnings).toBeDefined();
      for (const size of CHUNK_SIZES)
        expect(await decode(bytes, size), `chunks of ${size} B`).toEqual(reference);
      expect(await decode(bytes, 1 << 20, { fastTraceEntries: false })).toEqual(reference);
    }, 120_000);
  },
);
