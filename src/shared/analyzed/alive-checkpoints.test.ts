import { describe, expect, it } from 'vitest';
import { analyzeFile } from '../../../test/support/analyzed';
import { realSnapshotPath } from '../../../test/support/real-snapshots';
import {
  buildAliveCheckpoints,
  CHECKPOINT_EVENTS,
  rowsOverlapping,
  rowsStartingIn,
} from './alive-checkpoints';

describe('alive checkpoints', () => {
  it('find exactly the rows overlapping any window (brute force), across checkpoints', async () => {
    // Thousands of events: several checkpoints, a wrapped ring buffer (allocations from before the trace).
    const snapshot = await analyzeFile(realSnapshotPath('cherryni2022'));
    const device = snapshot.devices[0]!;
    const table = device.allocations;
    expect(device.traceLength).toBeGreaterThan(2 * CHECKPOINT_EVENTS);
    const checkpoints = buildAliveCheckpoints(table, device.traceLength);
    let seed = 3;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed % n;
    };
    const windows: [number, number][] = [
      [0, 1],
      [CHECKPOINT_EVENTS, CHECKPOINT_EVENTS + 1],
      [CHECKPOINT_EVENTS - 1, CHECKPOINT_EVENTS + 3],
      [device.traceLength - 1, device.traceLength],
      [0, device.traceLength],
    ];
    for (let i = 0; i < 40; i++) {
      const start = random(device.traceLength);
      windows.push([start, Math.min(device.traceLength, start + 1 + random(3000))]);
    }
    for (const [start, end] of windows) {
      const expected: number[] = [];
      let starting = 0;
      for (let row = 0; row < table.count; row++) {
        if (table.startEvent[row]! < end && table.endEvent[row]! > start) expected.push(row);
        if (table.startEvent[row]! >= start && table.startEvent[row]! < end) starting++;
      }
      const found = rowsOverlapping(table, checkpoints, start, end).sort((a, b) => a - b);
      expect(found, `window ${start}..${end}`).toEqual(expected);
      expect(rowsStartingIn(table, start, end)).toBe(starting);
    }
  });
});
