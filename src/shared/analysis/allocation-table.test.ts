import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { once } from '../../../test/support/analyzed';
import { realSnapshotPaths } from '../../../test/support/real-snapshots';
import { decodeSnapshot } from '../snapshot/decode-snapshot';
import { allocationsAliveAt } from './allocation-table';
import { buildAnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { liveAllocationsAt } from './live-allocations';
import { analyzeSnapshot } from './snapshot-analysis';

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (name, path) => {
  it('the allocation table reproduces the active curve at every sampled event', async () => {
    const bytes = new Uint8Array(readFileSync(path));
    const model = await decodeSnapshot(once(bytes), { totalBytes: bytes.length });
    const snapshot = buildAnalyzedSnapshot(model, { fileName: name, fileBytes: bytes.length });
    const analysis = analyzeSnapshot(model);
    snapshot.devices.forEach((device, d) => {
      const table = device.allocations;
      const step = Math.max(1, Math.floor(device.traceLength / 40));
      const clamped = snapshot.warnings.some((w) =>
        w.startsWith(`cuda:${device.device}: the trace does not match`),
      );
      for (let event = -1; event < device.traceLength; event += step) {
        const alive = allocationsAliveAt(table, event);
        let total = 0;
        for (const row of alive) total += table.sizeBytes[row]!;
        const curve = event < 0 ? device.figures.active.baselineBytes : device.activeBytes[event]!;
        if (!clamped) expect(total, `event ${event}`).toBe(curve);
        // Same set, same order as the summary's live allocations.
        const live = liveAllocationsAt(
          model,
          analysis.devices[d]!.trace,
          analysis.devices[d]!.match,
          analysis.devices[d]!.finalState,
          event,
        );
        expect([...alive].map((row) => table.sizeBytes[row])).toEqual(
          live.map((allocation) => allocation.bytes),
        );
      }
      if (!clamped && device.traceLength > 0) {
        expect(device.activeBytes[device.traceLength - 1]).toBe(device.figures.active.finalBytes);
      }
    });
  });
});
