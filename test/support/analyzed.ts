// Bytes → model → analyzed snapshot, the path the CLI and the page's worker take, for tests.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  buildAnalyzedSnapshot,
  type AnalyzedSnapshot,
} from '../../src/shared/analyzed/analyzed-snapshot';
import { decodeSnapshot, type DecodeOptions } from '../../src/shared/snapshot/decode-snapshot';
import type { SnapshotModel } from '../../src/shared/snapshot/model';

/** The whole input as one chunk. */
export async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** The input in chunks of `size` bytes (the last one shorter). */
export async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size)
    yield bytes.subarray(offset, offset + size);
}

export function decodeBytes(
  bytes: Uint8Array,
  options: DecodeOptions = {},
): Promise<SnapshotModel> {
  return decodeSnapshot(once(bytes), { totalBytes: bytes.length, ...options });
}

export async function analyzeBytes(
  bytes: Uint8Array,
  fileName = 'test.pickle',
): Promise<AnalyzedSnapshot> {
  return buildAnalyzedSnapshot(await decodeBytes(bytes), { fileName, fileBytes: bytes.length });
}

export function analyzeFile(path: string): Promise<AnalyzedSnapshot> {
  return analyzeBytes(new Uint8Array(readFileSync(path)), basename(path));
}
