import { describe, expect, it } from 'vitest';
import type { GroupFigures, MemoryFigures } from '../state/memory-figures';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { renderTheme } from './render-theme';
import {
  groupTitleLine,
  segmentsLegend,
  segmentsSvgTitle,
  totalsLine,
} from './segments-svg-header';

const MiB = 1024 * 1024;
const snapshot = { fileName: 'run.pickle' } as AnalyzedSnapshot;
const figures = {
  segmentCount: 1,
  reservedBytes: 20 * MiB,
  activeBytes: 3 * MiB,
  blockBytes: 4 * MiB,
  cachedFreeBytes: 16 * MiB,
  largestFreeBytes: 10 * MiB,
  freeBlockCount: 2,
} as MemoryFigures;

describe('segmentsSvgTitle', () => {
  it('names the moment the state is of', () => {
    expect(segmentsSvgTitle(snapshot, 1, 5000, 4999)).toBe(
      'run.pickle · cuda:1 · allocator segments, final state',
    );
    expect(segmentsSvgTitle(snapshot, 0, 5000, -1)).toBe(
      'run.pickle · cuda:0 · allocator segments, state before the first event',
    );
    expect(segmentsSvgTitle(snapshot, 0, 5000, 1234)).toBe(
      'run.pickle · cuda:0 · allocator segments, state after event 1,234 of 5,000',
    );
    expect(segmentsSvgTitle(snapshot, 0, 0, -1)).toContain('final state');
  });
});

describe('figure lines', () => {
  it('sums up the state', () => {
    expect(totalsLine({ ...figures, segmentCount: 3 })).toBe(
      'reserved 20.0 MiB · allocated 4.0 MiB (requested 3.0 MiB) · cached free 16.0 MiB in 2 blocks · largest hole 10.0 MiB · 3 segments',
    );
  });

  it('sums up a group under its title', () => {
    expect(groupTitleLine('default pool', figures as GroupFigures)).toBe(
      'default pool — 1 segment, 20.0 MiB reserved, 16.0 MiB cached free, largest hole 10.0 MiB',
    );
  });
});

describe('segmentsLegend', () => {
  it('has a swatch and a label per state', () => {
    const legend = segmentsLegend(renderTheme('light'), 58);
    expect(legend.match(/<rect /g)).toHaveLength(5);
    expect(legend).toContain('stroke-dasharray="3 2"');
    // The page's legend (segments-toolbar.tsx), word for word.
    for (const words of [
      'allocated',
      'pending free',
      'cached free',
      'expandable (mapped extent)',
      'largest hole',
    ])
      expect(legend).toContain(`>${words}</text>`);
  });
});
