// The size the allocator gives a request (used for blocks of allocations gone by the end) checked
// against every live block of the 12 real snapshots, whose sizes the files record.

import { describe, expect, it } from 'vitest';
import { keepsRemainder, roundedRequestBytes } from '@shared/state/block-rounding';
import { BlockStateCode } from '@shared/snapshot/model';
import { SegmentTypeCode } from '@shared/analysis/segment-history';
import { readSnapshotFile } from '../../src/cli/read-snapshot-file';
import { realSnapshotPaths } from '../support/real-snapshots';

describe('roundedRequestBytes + keepsRemainder on real blocks', () => {
  it('reproduce the recorded size of every live block', async () => {
    let checked = 0;
    const wrong: string[] = [];
    for (const path of realSnapshotPaths()) {
      const { model } = await readSnapshotFile(path);
      const { segments, blocks } = model;
      for (let s = 0; s < segments.count; s++) {
        const end = segments.address[s]! + segments.totalSizeBytes[s]!;
        const first = segments.blockOffsets[s]!;
        const last = segments.blockOffsets[s + 1]!;
        for (let b = first; b < last; b++) {
          if (blocks.state[b] === BlockStateCode.inactive) continue;
          // The room the block could take: up to the next live block (a hole is one free block).
          let limit = blocks.address[b]! + blocks.sizeBytes[b]!;
          if (b + 1 < last && blocks.state[b + 1] === BlockStateCode.inactive)
            limit += blocks.sizeBytes[b + 1]!;
          if (b + 1 >= last) limit = end;
          let size = roundedRequestBytes(blocks.requestedSizeBytes[b]!, model.allocatorSettings);
          const remainder = limit - blocks.address[b]! - size;
          const small = segments.segmentType[s] === SegmentTypeCode.small;
          if (keepsRemainder(remainder, small, segments.isExpandable[s] === 1)) size += remainder;
          checked++;
          if (size !== blocks.sizeBytes[b]) {
            wrong.push(
              `${path}: block ${b} ${blocks.requestedSizeBytes[b]} -> ${size}, recorded ${blocks.sizeBytes[b]}`,
            );
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(6000);
    expect(wrong).toEqual([]);
  });
});

describe('roundedRequestBytes', () => {
  it('rounds to 512-byte multiples with a 512-byte minimum', () => {
    expect(roundedRequestBytes(1, null)).toBe(512);
    expect(roundedRequestBytes(512, null)).toBe(512);
    expect(roundedRequestBytes(513, null)).toBe(1024);
    expect(roundedRequestBytes(5308694528, null)).toBe(5308694528);
  });

  it('applies roundup_power2_divisions above 512 × divisions', () => {
    const settings = { roundup_power2_divisions: { '1': 4, '2': 4, '4': 4, '8': 4 } };
    // 5 MiB + 1 lies between 4 and 8 MiB: steps of 1 MiB.
    expect(roundedRequestBytes(5 * 2 ** 20 + 1, settings)).toBe(6 * 2 ** 20);
    expect(roundedRequestBytes(4 * 2 ** 20, settings)).toBe(4 * 2 ** 20);
    expect(roundedRequestBytes(1000, settings)).toBe(1024);
  });
});
