// Reads a snapshot file from disk as a stream of chunks into the shared decoder (the file is never
// held whole in memory, so multi-GB snapshots stay within RAM). `-` reads standard input (a pipe
// from `zcat`, say). Anything that is not a regular file is refused before it is opened: opening
// a FIFO blocks until a writer comes, and a device or socket is never a snapshot. A file is read
// up to the size it had when opened: one still being written (or appended to meanwhile) is the
// snapshot it was then, cut short where it was cut, whatever is added while it is read.

import { closeSync, constants, createReadStream, fstatSync, openSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { assertRegularFile } from '@shared/snapshot/regular-file';
import { decodeSnapshot } from '@shared/snapshot/decode-snapshot';
import type { SnapshotModel } from '@shared/snapshot/model';
import { gzipIsizeOf } from './gzip-isize';
import { cliMemoryLimit } from './memory-limit';
import { withMemoryTimeline } from './read-memory-timeline';
import { decodeFileInParts } from './decode-in-workers';
import { decodeJobs } from './decode-jobs';
import { threadCpuSeconds } from './thread-cpu';
import { decodeProgressReporter } from './decode-progress';
import { terminalProgressLine, type ProgressLine } from './terminal-output';

const READ_CHUNK_BYTES = 1 << 20;

export const STDIN_FILE = '-';

export interface SnapshotFile {
  fileName: string;
  fileBytes: number;
  model: SnapshotModel;
  /** Each decoding thread's CPU seconds, the main thread's first (--jobs; ./decode-in-workers.ts). */
  decodeThreadCpuSeconds?: number[];
}

/** A snapshot file opened for reading: its size when opened, and its bytes up to there. */
export interface OpenedSnapshotFile {
  readonly size: number;
  /** Its gzip trailer's ISIZE, for a gzip file. */
  readonly gzipIsize: number | null;
  /** Its first `size` bytes, however it grows meanwhile; reading them closes the file. */
  readonly chunks: AsyncIterable<Uint8Array>;
}

export interface ReadSnapshotOptions {
  /** --max-memory in bytes; null: this machine's memory (./memory-limit.ts). */
  readonly maxMemory?: number | null;
  /** --memory-timeline: the run's export_memory_timeline, to give a trace's allocations categories. */
  readonly memoryTimeline?: string | null;
  /** --jobs: threads that decode one file (./decode-jobs.ts); null or absent: the default. */
  readonly jobs?: number | null;
  /** A line of progress on a terminal's stderr for a large file (./decode-progress.ts; default true). */
  readonly progress?: boolean;
}

/** The file, and with --memory-timeline its run's timeline read into it (./read-memory-timeline.ts). */
export async function readSnapshotFile(
  path: string,
  options: ReadSnapshotOptions = {},
): Promise<SnapshotFile> {
  return withMemoryTimeline(
    await readOneSnapshotFile(path, options),
    options.memoryTimeline ?? null,
    (timelinePath) => readOneSnapshotFile(timelinePath, { maxMemory: options.maxMemory ?? null }),
  );
}

export async function readOneSnapshotFile(
  path: string,
  options: ReadSnapshotOptions = {},
): Promise<SnapshotFile> {
  const memoryLimit = cliMemoryLimit(options.maxMemory ?? null);
  if (path === STDIN_FILE) {
    let bytes = 0;
    const counted = (async function* () {
      for await (const chunk of process.stdin as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        yield chunk;
      }
    })();
    const model = await decodeSnapshot(counted, { memoryLimit });
    return { fileName: 'standard input', fileBytes: bytes, model };
  }
  const progressLine = options.progress === false ? null : terminalProgressLine();
  const inParts = await decodeInParts(path, options.jobs ?? null, progressLine);
  if (inParts !== null) return inParts;
  const { size, gzipIsize, chunks } = await openSnapshotFile(path);
  const cpuBefore = threadCpuSeconds();
  const progress = decodeProgressReporter(basename(path), size, progressLine);
  try {
    const model = await decodeSnapshot(chunks, {
      totalBytes: size,
      memoryLimit,
      gzipIsize,
      ...(progress === null ? {} : { onProgress: progress.onProgress }),
    });
    const decodeThreadCpuSeconds = [threadCpuSeconds() - cpuBefore];
    return { fileName: basename(path), fileBytes: size, model, decodeThreadCpuSeconds };
  } finally {
    progress?.done();
  }
}

/** The file decoded on several threads (./decode-in-workers.ts); null: decode it on one. */
async function decodeInParts(
  path: string,
  requested: number | null,
  progressLine: ProgressLine | null,
): Promise<SnapshotFile | null> {
  const info = await stat(path).catch(() => null);
  if (info === null || !info.isFile()) return null;
  const jobs = decodeJobs(requested, info.size);
  if (jobs < 2) return null;
  const progress = decodeProgressReporter(basename(path), info.size, progressLine);
  // Any failure here (the file changed, a worker died) leaves the answer to the serial decode.
  const decoded = await decodeFileInParts(path, info.size, jobs, progress?.onProgress)
    .catch(() => null)
    .finally(() => progress?.done());
  if (decoded === null) return null;
  const { model, threadCpuSeconds } = decoded;
  return {
    fileName: basename(path),
    fileBytes: info.size,
    model,
    decodeThreadCpuSeconds: threadCpuSeconds,
  };
}

export async function openSnapshotFile(path: string): Promise<OpenedSnapshotFile> {
  const hint = ' (use - to read standard input)';
  assertRegularFile(await stat(path), hint);
  // Non-blocking: should the path have become a FIFO since its stat, the open returns at once
  // and the fstat refuses it (a regular file reads the same either way).
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  let size: number;
  let gzipIsize: number | null;
  try {
    const info = fstatSync(fd);
    assertRegularFile(info, hint);
    size = info.size;
    gzipIsize = gzipIsizeOf(fd, size);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (size === 0) {
    closeSync(fd);
    return { size, gzipIsize, chunks: (async function* () {})() };
  }
  // `end` is inclusive.
  const chunks = createReadStream(path, {
    fd,
    start: 0,
    end: size - 1,
    highWaterMark: READ_CHUNK_BYTES,
  });
  return { size, gzipIsize, chunks };
}
