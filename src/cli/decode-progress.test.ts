import { describe, expect, it } from 'vitest';
import { decodeProgressReporter, progressText, PROGRESS_MIN_BYTES } from './decode-progress';
import type { ProgressLine } from './terminal-output';

function recordingLine(): ProgressLine & { writes: string[] } {
  const writes: string[] = [];
  return { writes, show: (text) => writes.push(text), clear: () => writes.push('<clear>') };
}

const GB = 6e9;

describe('the decode progress line', () => {
  it('says how far the reading is, in the file and in human units, then that the model is built', () => {
    expect(
      progressText('big.pickle', GB, { phase: 'reading', bytesRead: 1.5e9, totalBytes: GB }),
    ).toBe('reading big.pickle: 1.4 GiB of 5.6 GiB (25%)');
    expect(
      progressText('big.pickle', GB, { phase: 'building', bytesRead: GB, totalBytes: GB }),
    ).toBe('big.pickle: building the model');
  });

  it('is rewritten at most ten times a second, and erased at the end', () => {
    const line = recordingLine();
    let time = 0;
    const reporter = decodeProgressReporter('big.pickle', GB, line, () => time)!;
    for (let step = 0; step < 50; step++) {
      reporter.onProgress({ phase: 'reading', bytesRead: step * 1e8, totalBytes: GB });
      time += 20;
    }
    // 50 updates over 1 s: one per 100 ms.
    expect(line.writes).toHaveLength(10);
    reporter.done();
    expect(line.writes.at(-1)).toBe('<clear>');
    reporter.done();
    expect(line.writes.filter((write) => write === '<clear>')).toHaveLength(1);
  });

  it('is not shown for a file that decodes in a second, nor where stderr is not a terminal', () => {
    expect(
      decodeProgressReporter('small.pickle', PROGRESS_MIN_BYTES - 1, recordingLine()),
    ).toBeNull();
    expect(decodeProgressReporter('big.pickle', GB, null)).toBeNull();
  });
});
