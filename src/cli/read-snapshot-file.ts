// Reads a snapshot file from disk as a stream of chunks into the shared decoder (the file is never
// held whole in memory, so multi-GB snapshots stay within RAM).

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { decodeSnapshot } from '@shared/snapshot/decode-snapshot';
import type { SnapshotModel } from '@shared/snapshot/model';

const READ_CHUNK_BYTES = 1 << 20;

export interface SnapshotFile {
  fileName: string;
  fileBytes: number;
  model: SnapshotModel;
}

export async function readSnapshotFile(path: string): Promise<SnapshotFile> {
  const info = await stat(path);
  if (info.isDirectory()) throw new Error('is a directory, not a snapshot file');
  const stream = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
  const model = await decodeSnapshot(stream as AsyncIterable<Uint8Array>, {
    totalBytes: info.size,
  });
  return { fileName: basename(path), fileBytes: info.size, model };
}
