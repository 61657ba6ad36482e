// How far a long decode has come, on one line of stderr where it is a terminal: a 6 GB file takes
// a minute, and a silent minute reads as a hang. Only for files large enough to take a while,
// rewritten at most ten times a second, and erased when the decode ends, so that what the command
// prints after it (on stdout or stderr) reads as without it.

import type { DecodeProgress } from '@shared/snapshot/decode-snapshot';
import { formatBytes } from '@shared/format/units';
import type { ProgressLine } from './terminal-output';

/** Files below this decode in about a second: no line. */
export const PROGRESS_MIN_BYTES = 64 << 20;
const INTERVAL_MS = 100;

export interface DecodeProgressReporter {
  onProgress(progress: DecodeProgress): void;
  /** Erases the line (the decode ended, or failed). */
  done(): void;
}

export function decodeProgressReporter(
  fileName: string,
  totalBytes: number,
  line: ProgressLine | null,
  now: () => number = () => performance.now(),
): DecodeProgressReporter | null {
  if (line === null || totalBytes < PROGRESS_MIN_BYTES) return null;
  let shownAt = -Infinity;
  let shown = false;
  return {
    onProgress(progress) {
      const time = now();
      if (time - shownAt < INTERVAL_MS) return;
      shownAt = time;
      shown = true;
      line.show(progressText(fileName, totalBytes, progress));
    },
    done() {
      if (shown) line.clear();
      shown = false;
    },
  };
}

export function progressText(
  fileName: string,
  totalBytes: number,
  progress: DecodeProgress,
): string {
  if (progress.phase === 'building') return `${fileName}: building the model`;
  const share = Math.min(100, Math.floor((progress.bytesRead / totalBytes) * 100));
  return `reading ${fileName}: ${formatBytes(progress.bytesRead)} of ${formatBytes(totalBytes)} (${share}%)`;
}
