// How many snapshots may decode at once: one rule for the CLI's worker threads (`ranks`) and the
// app's decode workers. Each decode wants a core, and holds about MEMORY_PER_FILE_BYTE times its
// file while it builds the columns and the analysed model; more at once than the cores or the
// memory allow only makes every file slower (or the machine swap).

import { MEMORY_PER_DECODED_BYTE } from '../snapshot/unpacked-budget';

/**
 * Memory one decode holds at its height, as a multiple of the bytes it works through: the one
 * figure the decoder's own limit on what a .gz may unpack to uses (../snapshot/unpacked-budget.ts).
 */
export const MEMORY_PER_FILE_BYTE = MEMORY_PER_DECODED_BYTE;

/**
 * How much larger a gzipped snapshot is unpacked, when its unpacked size is not known (the app:
 * it budgets before reading a byte). Measured 7.6-22.5x on three snapshots; the decoder unpacks a
 * .gz whole in memory, so a guess on the high side keeps the budget honest.
 */
export const GZIP_RATIO_GUESS = 12;

/**
 * The bytes a decode works through: the file's size, or for a gzipped file its unpacked size
 * (given, from the gzip trailer, where the caller could read it; else guessed). Null: unknown.
 */
export function decodedBytesOf(
  fileName: string,
  fileBytes: number | null,
  unpackedBytes: number | null = null,
): number | null {
  if (!/\.gz$/i.test(fileName)) return fileBytes;
  if (unpackedBytes !== null) return unpackedBytes;
  return fileBytes === null ? null : fileBytes * GZIP_RATIO_GUESS;
}

export interface DecodeResources {
  /** Cores the decodes may use. */
  readonly cores: number;
  /** Memory the decodes may hold together. */
  readonly memoryBytes: number;
}

/**
 * Decodes to run at once for files known up front (the CLI's `ranks`): at least one. `fileBytes`:
 * what each decode works through (decodedBytesOf).
 */
export function parallelDecodes(fileBytes: readonly number[], resources: DecodeResources): number {
  const largest = Math.max(1, ...fileBytes);
  const byMemory = Math.floor(resources.memoryBytes / (largest * MEMORY_PER_FILE_BYTE));
  return Math.max(1, Math.min(fileBytes.length, Math.floor(resources.cores), byMemory));
}

/**
 * Whether a decode of `fileBytes` (null: size unknown) may start beside those running (theirs),
 * for files that arrive one by one (the app); sizes as decodedBytesOf gives them. The first always starts, however
 * large: a file larger than the budget still opens, alone.
 */
export function mayStartDecode(
  running: readonly (number | null)[],
  fileBytes: number | null,
  resources: DecodeResources,
): boolean {
  if (running.length === 0) return true;
  if (running.length >= Math.max(1, Math.floor(resources.cores))) return false;
  const held = [...running, fileBytes].reduce<number>((sum, bytes) => sum + (bytes ?? 0), 0);
  return held * MEMORY_PER_FILE_BYTE <= resources.memoryBytes;
}

/**
 * Files below this decode on one thread: starting a worker and the CPU a part costs beyond its
 * share (its count of the part before its own, the take-in) outweigh what it takes off (2
 * threads: 100 MB 0.77x, 1 GB 1.20x, 1.46x on a quiet machine; docs/parallel-decode.md).
 */
export const MIN_BYTES_FOR_PARTS = 256 << 20;
/** More parts than this gain little: the spine's share and the merge do not shrink with them. */
export const MAX_PARTS = 16;

/**
 * Fewer cores than this decode on one thread by default: on two cores, two threads gain little on
 * a busy machine (300 MB 1.04x, 1 GB 1.20x at a load of 6-7) for a third more CPU and a quarter
 * more memory, and would take the core the user's other work runs on (docs/parallel-decode.md);
 * --jobs still asks for parts.
 */
export const MIN_CORES_FOR_PARTS = 4;

/** What each worker thread of a decode in parts holds besides its share: its own isolate. */
export const MEMORY_PER_PART_THREAD = 64 << 20;

/**
 * Threads for one file's decode in parts (issue 25): a core each, while the memory holds what one
 * decode holds (its parts' columns add up to one decode's; no thread holds the file) and an
 * isolate per worker thread; one below MIN_BYTES_FOR_PARTS or MIN_CORES_FOR_PARTS. `fileBytes`:
 * the file's size (parts are never made of a .gz).
 */
export function partsForOneDecode(fileBytes: number, resources: DecodeResources): number {
  if (fileBytes < MIN_BYTES_FOR_PARTS || resources.cores < MIN_CORES_FOR_PARTS) return 1;
  const spare = resources.memoryBytes - fileBytes * MEMORY_PER_FILE_BYTE;
  if (spare < MEMORY_PER_PART_THREAD) return 1;
  const byMemory = 1 + Math.floor(spare / MEMORY_PER_PART_THREAD);
  return Math.max(1, Math.min(MAX_PARTS, Math.floor(resources.cores), byMemory));
}
