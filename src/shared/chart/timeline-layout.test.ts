import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realSnapshotPaths } from '../../../test/support/real-snapshots';
import { decodeSnapshot } from '../snapshot/decode-snapshot';
import { buildSnapshotView, type DeviceView } from '../view/snapshot-view';
import {
  hitTestTimeline,
  layoutTimeline,
  stepValueAt,
  type TimelineLayout,
} from './timeline-layout';

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

function evenColumns(start: number, end: number, columns: number): Int32Array {
  return Int32Array.from({ length: columns + 1 }, (_, i) =>
    Math.round(start + ((end - start) * i) / columns),
  );
}

/** At `event`, the alive bands must tile [0, Σ sizes) without gaps or overlaps, below the active curve. */
function checkStacking(layout: TimelineLayout, device: DeviceView, event: number): void {
  const table = device.allocations;
  const spans = layout.bands
    .filter((band) => table.startEvent[band.row]! <= event && band.endEvent > event)
    .map((band) => [stepValueAt(band, event), band.sizeBytes] as const)
    .sort((a, b) => a[0] - b[0]);
  let top = 0;
  for (const [offset, size] of spans) {
    expect(offset, `event ${event}`).toBe(top);
    top += size;
  }
  expect(top).toBeLessThanOrEqual(device.activeBytes[event]!);
}

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (name, path) => {
  it('stacks the largest allocations without gaps, envelopes equal the curves, hits find bands', async () => {
    const bytes = new Uint8Array(readFileSync(path));
    const model = await decodeSnapshot(once(bytes), { totalBytes: bytes.length });
    const view = buildSnapshotView(model, { fileName: name, fileBytes: bytes.length });
    for (const device of view.devices) {
      const n = device.traceLength;
      if (n === 0) {
        // No trace: the one slot before it holds every allocation alive at the dump.
        const layout = layoutTimeline({
          device,
          startEvent: -1,
          endEvent: 0,
          columnStartEvents: Int32Array.from([-1, 0]),
          maxBands: 50,
        });
        expect(layout.bands).toHaveLength(Math.min(50, device.allocations.count));
        expect(layout.activeMax[0]).toBe(device.summary.active_bytes.final);
        continue;
      }
      const windows: [number, number][] = [
        [0, n],
        [Math.floor(n / 3), Math.floor(n / 3) + Math.max(1, Math.floor(n / 10))],
      ];
      for (const [start, end] of windows) {
        const columns = 97;
        const layout = layoutTimeline({
          device,
          startEvent: start,
          endEvent: end,
          columnStartEvents: evenColumns(start, end, columns),
          maxBands: 50,
        });
        // The 50 largest overlapping allocations, by brute force.
        const table = device.allocations;
        const overlapping: number[] = [];
        for (let row = 0; row < table.count; row++) {
          if (table.startEvent[row]! < end && table.endEvent[row]! > start) overlapping.push(row);
        }
        const sizes = overlapping
          .map((row) => table.sizeBytes[row]!)
          .sort((a, b) => b - a)
          .slice(0, 50);
        expect(layout.bands.map((band) => band.sizeBytes).sort((a, b) => b - a)).toEqual(sizes);
        for (let event = start; event < end; event += Math.max(1, Math.floor((end - start) / 25))) {
          checkStacking(layout, device, event);
        }
        // Envelopes by brute force.
        const columnStarts = evenColumns(start, end, columns);
        for (let column = 0; column < columns; column++) {
          const from = columnStarts[column]!;
          const to = columnStarts[column + 1]!;
          if (to <= from) continue;
          const values = [...device.activeBytes.subarray(from, to)];
          expect(layout.activeMin[column]).toBe(Math.min(...values));
          expect(layout.activeMax[column]).toBe(Math.max(...values));
          const reserved = [...device.reservedBytes.subarray(from, to)];
          expect(layout.reservedMax[column]).toBe(Math.max(...reserved));
        }
        // The middle of every alive band at one event hits that band.
        const event = Math.floor((start + end) / 2);
        for (const band of layout.bands) {
          if (table.startEvent[band.row]! > event || band.endEvent <= event || band.sizeBytes === 0)
            continue;
          const hit = hitTestTimeline(
            layout,
            device,
            event,
            stepValueAt(band, event) + band.sizeBytes / 2,
          );
          expect(hit).toEqual({ kind: 'allocation', row: band.row });
        }
        expect(hitTestTimeline(layout, device, event, layout.maxBytes * 2 + 1)).toBeNull();
      }
    }
  });
});
