// Reads a snapshot file from disk as a stream of chunks into the shared decoder (the file is never
// held whole in memory, so multi-GB snapshots stay within RAM). `-` reads standard input (a pipe
// from `zcat`, say). Anything that is not a regular file is refused before it is opened: opening
// a FIFO blocks until a writer comes, and a device or socket is never a snapshot.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { assertRegularFile } from '@shared/snapshot/regular-file';
import { decodeSnapshot } from '@shared/snapshot/decode-snapshot';
import type { SnapshotModel } from '@shared/snapshot/model';

const READ_CHUNK_BYTES = 1 << 20;

export const STDIN_FILE = '-';

export interface SnapshotFile {
  fileName: string;
  fileBytes: number;
  model: SnapshotModel;
}

export async function readSnapshotFile(path: string): Promise<SnapshotFile> {
  if (path === STDIN_FILE) {
    let bytes = 0;
    const counted = (async function* () {
      for await (const chunk of process.stdin as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        yield chunk;
      }
    })();
    const model = await decodeSnapshot(counted);
    return { fileName: 'standard input', fileBytes: bytes, model };
  }
  const info = await stat(path);
  assertRegularFile(info, ' (use - to read standard input)');
  const stream = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
  const model = await decodeSnapshot(stream as AsyncIterable<Uint8Array>, {
    totalBytes: info.size,
  });
  return { fileName: basename(path), fileBytes: info.size, model };
}
