import { describe, expect, it } from 'vitest';
import { allocatorStateOf } from '../../../test/support/builders/allocator-state';
import { barRuns, type BarRuns } from './segment-bar-runs';

function runsOf(
  blocks: Parameters<typeof allocatorStateOf>[0][number]['blocks'],
  width: number,
): { runs: BarRuns; separators: number[] } {
  const state = allocatorStateOf([{ address: 1000, blocks }]);
  const runs: BarRuns = [[], []];
  const separators: number[] = [];
  barRuns(state, { segment: state.segments[0]!, x: 10, width }, runs, separators);
  return { runs, separators };
}

describe('barRuns', () => {
  it('gives wide blocks their own runs by state, with hairlines between neighbours', () => {
    const { runs, separators } = runsOf(
      [
        { sizeBytes: 40, kind: 'allocated' },
        { sizeBytes: 20, kind: 'allocated' },
        { sizeBytes: 20, kind: 'free' },
        { sizeBytes: 20, kind: 'pending free' },
      ],
      100,
    );
    // Neighbouring allocated runs touch, so they merge into one run with a hairline at 50.
    expect(runs[0]).toEqual([{ x0: 10, x1: 70 }]);
    expect(runs[1]).toEqual([{ x0: 90, x1: 110 }]);
    expect(separators).toEqual([50]);
  });

  it('merges blocks narrower than a pixel into the state holding most of their column', () => {
    const { runs } = runsOf(
      [
        { sizeBytes: 3, kind: 'pending free' },
        { sizeBytes: 4, kind: 'allocated' },
        { sizeBytes: 3, kind: 'pending free' },
        { sizeBytes: 990, kind: 'free' },
      ],
      100,
    );
    // 1000 bytes over 100 px: the three blocks share the first pixel, 0.6 px of it pending free.
    expect(runs[0]).toEqual([]);
    expect(runs[1]).toEqual([{ x0: 10, x1: 11 }]);
  });

  it('leaves out columns mostly free', () => {
    const { runs } = runsOf(
      [
        { sizeBytes: 2, kind: 'allocated' },
        { sizeBytes: 998, kind: 'free' },
      ],
      100,
    );
    expect(runs).toEqual([[], []]);
  });
});
