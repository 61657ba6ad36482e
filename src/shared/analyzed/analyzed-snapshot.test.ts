import { describe, expect, it } from 'vitest';
import { analyzeFile } from '../../../test/support/analyzed';
import { realSnapshotPath } from '../../../test/support/real-snapshots';
import { transferablesOf } from './analyzed-snapshot';
import { traceTimeSpanUs } from './device-times';

/** Every ArrayBuffer under a value, found by walking all of it. */
function buffersUnder(value: unknown, found = new Set<ArrayBuffer>(), seen = new Set<object>()) {
  if (value === null || typeof value !== 'object' || seen.has(value)) return found;
  seen.add(value);
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
    return found;
  }
  for (const child of Object.values(value)) buffersUnder(child, found, seen);
  return found;
}

describe('transferablesOf', () => {
  it('lists every buffer of the view, so posting it copies no column', async () => {
    const snapshot = await analyzeFile(realSnapshotPath('Constructor-Sun'));
    const listed = transferablesOf(snapshot);
    expect(new Set(listed).size).toBe(listed.length);
    expect(new Set(listed)).toEqual(buffersUnder(snapshot));
  });
});

describe('the time span measured while building', () => {
  it('is the span of the times the page receives, and the page does not measure it again', async () => {
    for (const prefix of ['LINYUN', 'Maphsge4', 'Constructor-Sun']) {
      const snapshot = await analyzeFile(realSnapshotPath(prefix));
      for (const device of snapshot.devices) {
        if (device.timeUs === null) {
          expect(device.timeSpanUs ?? null).toBeNull();
          continue;
        }
        // Measured afresh on a copy (another column: nothing remembered for it).
        const copy = new Float64Array(device.timeUs);
        expect(device.timeSpanUs).toBe(traceTimeSpanUs(copy, device.traceLength));
        expect(device.timeSpanUs).toBeGreaterThan(0);
        // The adopted column answers from what was remembered.
        expect(traceTimeSpanUs(device.timeUs, device.traceLength)).toBe(device.timeSpanUs);
      }
    }
  });
});
