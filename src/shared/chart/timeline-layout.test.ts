import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { once } from '../../../test/support/analyzed';
import { testFigures } from '../../../test/support/builders/analyzed-device';
import { DerivedCache } from '../analyzed/derived-cache';
import { realSnapshotPaths } from '../../../test/support/real-snapshots';
import { decodeSnapshot } from '../snapshot/decode-snapshot';
import { buildAnalyzedSnapshot, type AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { NOT_PENDING } from '../analysis/allocation-table';
import { emptySegmentHistory } from '../analysis/segment-history';
import {
  hitTestTimeline,
  layoutTimeline,
  stepValueAt,
  type TimelineLayout,
} from './timeline-layout';

function evenColumns(start: number, end: number, columns: number): Int32Array {
  return Int32Array.from({ length: columns + 1 }, (_, i) =>
    Math.round(start + ((end - start) * i) / columns),
  );
}

/** At `event`, the alive bands must tile [0, Σ sizes) without gaps or overlaps, below the active curve. */
function checkStacking(layout: TimelineLayout, device: AnalyzedDevice, event: number): void {
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

/** The band rule of selectBandRows, computed the slow obvious way. */
function bruteForceBandRows(
  device: AnalyzedDevice,
  start: number,
  end: number,
  count: number,
): number[] {
  const table = device.allocations;
  const overlapping: number[] = [];
  for (let row = 0; row < table.count; row++) {
    if (table.startEvent[row]! < end && table.endEvent[row]! > start) overlapping.push(row);
  }
  const bySize = [...overlapping].sort(
    (a, b) => table.sizeBytes[b]! - table.sizeBytes[a]! || a - b,
  );
  const chosen = bySize.slice(0, Math.ceil(count / 2));
  const area = (row: number) =>
    table.sizeBytes[row]! *
    Math.max(0, Math.min(table.endEvent[row]!, end) - Math.max(table.startEvent[row]!, start));
  const rest = overlapping
    .filter((row) => !chosen.includes(row))
    .sort((a, b) => area(b) - area(a) || a - b);
  return [...chosen, ...rest.slice(0, count - chosen.length)].sort((a, b) => a - b);
}

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (name, path) => {
  it('stacks the largest allocations without gaps, envelopes equal the curves, hits find bands', async () => {
    const bytes = new Uint8Array(readFileSync(path));
    const model = await decodeSnapshot(once(bytes), { totalBytes: bytes.length });
    const snapshot = buildAnalyzedSnapshot(model, { fileName: name, fileBytes: bytes.length });
    for (const device of snapshot.devices) {
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
        expect(layout.activeMax[0]).toBe(device.figures.active.finalBytes);
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
        // The 25 largest overlapping allocations, then the 25 others covering most of the
        // window (bytes × events visible), by brute force.
        const table = device.allocations;
        expect(layout.bands.map((band) => band.row).sort((a, b) => a - b)).toEqual(
          bruteForceBandRows(device, start, end, 50),
        );
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

/** A device with more allocations than a narrow window holds: layouts take the wide path. */
function manyAllocationsDevice(count: number): AnalyzedDevice {
  let seed = 11;
  const random = (n: number): number => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed % n;
  };
  const traceLength = 2 * count;
  const startEvent = Int32Array.from({ length: count }, (_, i) => 2 * i);
  // Mostly short-lived, a few held for most of the trace.
  const endEvent = Int32Array.from(startEvent, (start) =>
    Math.min(traceLength, start + 1 + (random(50) === 0 ? random(traceLength) : random(40))),
  );
  const sizeBytes = Float64Array.from({ length: count }, () => 512 * (1 + random(4000)));
  return {
    device: 0,
    traceLength,
    timeUs: null,
    action: new Uint8Array(traceLength),
    activeBytes: new Float64Array(traceLength),
    reservedBytes: new Float64Array(traceLength),
    allocations: {
      count,
      address: Float64Array.from({ length: count }, (_, i) => i * 4096),
      sizeBytes,
      blockSizeBytes: new Float64Array(count).fill(NaN),
      startEvent,
      endEvent,
      stackId: new Int32Array(count).fill(-1),
      streamId: new Uint32Array(count),
      origin: new Uint8Array(count),
      freeRequestedEvent: new Int32Array(count).fill(NOT_PENDING),
    },
    segmentHistory: emptySegmentHistory(),
    ooms: [],
    figures: testFigures(),
    derived: new DerivedCache(),
  };
}

describe('band selection on a wide window (more allocations than the narrow path takes)', () => {
  const device = manyAllocationsDevice(30_000);
  const n = device.traceLength;

  it('over the whole trace: the largest, then those covering the most, exactly', () => {
    const layout = layoutTimeline({
      device,
      startEvent: 0,
      endEvent: n,
      columnStartEvents: evenColumns(0, n, 200),
      maxBands: 60,
    });
    expect(layout.bands.map((band) => band.row).sort((a, b) => a - b)).toEqual(
      bruteForceBandRows(device, 0, n, 60),
    );
  });

  it('on part of it: the largest half exactly, every band in the window', () => {
    const [start, end] = [Math.floor(n / 4), Math.floor((3 * n) / 4)];
    const layout = layoutTimeline({
      device,
      startEvent: start,
      endEvent: end,
      columnStartEvents: evenColumns(start, end, 200),
      maxBands: 60,
    });
    const rows = layout.bands.map((band) => band.row);
    expect(rows).toHaveLength(60);
    const table = device.allocations;
    for (const row of rows) {
      expect(table.startEvent[row]! < end && table.endEvent[row]! > start).toBe(true);
    }
    const largest = bruteForceBandRows(device, start, end, 60).filter((row) => rows.includes(row));
    expect(largest.length).toBeGreaterThanOrEqual(30);
  });
});
