// Every export a lower view's registry entry declares makes its file from a real snapshot, as the
// page would (src/renderer/registry/lower-views.ts): SVG, CSV and JSON here; PNG is that SVG
// rasterized by the page (test/e2e/export.spec.ts).

import { describe, expect, it } from 'vitest';
import { defaultMoment } from '../../src/shared/analyzed/moments';
import { allocatorStateIndexOf } from '../../src/shared/state/allocator-state';
import { analyzeFile } from '../support/analyzed';
import { realSnapshotPath } from '../support/real-snapshots';
import type { ExportContext } from '../../src/renderer/export/export-files';
import { exportFormatsOf, makeViewExportFile } from '../../src/renderer/export/view-exports';
import { createTabStore } from '../../src/renderer/state/tab-store';
import { LOWER_VIEWS } from '../../src/renderer/registry/lower-views';

describe("the lower views' exports", () => {
  it('every declared export makes its file (SVG, CSV, JSON; PNG is the SVG rasterized)', async () => {
    const snapshot = await analyzeFile(
      realSnapshotPath('a0kuma_pytorchMemoryViz__tests__gpu_memory_snapshot-adam'),
    );
    const device = snapshot.devices[0]!;
    const store = createTabStore(snapshot, null);
    store.getState().setHolderQuery('adam');
    const moment = defaultMoment(device);
    const context: ExportContext = {
      snapshot,
      deviceIndex: 0,
      stateIndex: allocatorStateIndexOf(snapshot, device),
      moment,
      activeView: 'timeline',
      timelineWindow: null,
      theme: 'light',
      chartSize: { width: 900, height: 400 },
      tab: store.getState(),
      // Steps and Compare hand over their picture as they show it (their views make it).
      viewPicture: (size) => `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}"/>`,
      slicing: { now: () => 0, sliceMs: Infinity, pause: () => Promise.resolve() },
    };
    for (const view of LOWER_VIEWS) {
      const formats = exportFormatsOf(view.exports);
      expect(formats.length, view.id).toBeGreaterThan(0);
      for (const format of formats.filter((f) => f !== 'png')) {
        const file = await makeViewExportFile(view.exports, format, context, 1);
        expect(file.format).toBe(format);
        expect(file.fileName, `${view.id} ${format}`).toMatch(
          new RegExp(`^a0kuma_pytorchMemoryViz__tests__gpu_memory_snapshot-adam\\..*\\.${format}$`),
        );
        expect(typeof file.data === 'string' && file.data.length > 0, file.fileName).toBe(true);
        if (format === 'svg') expect(file.data).toMatch(/^<svg\b/);
      }
    }
    // Who holds it exports its own flame graph and grouped table, as shown (the search kept).
    const holders = LOWER_VIEWS.find((view) => view.id === 'holders')!;
    const flame = await makeViewExportFile(holders.exports, 'svg', context, 1);
    expect(flame.fileName).toBe(
      'a0kuma_pytorchMemoryViz__tests__gpu_memory_snapshot-adam.cuda0.flame.svg',
    );
    expect(flame.data).toContain(`after event ${moment}`);
    expect(flame.data).toContain('cuda:0');
    const csv = await makeViewExportFile(holders.exports, 'csv', context, 1);
    expect(csv.fileName).toBe(
      `a0kuma_pytorchMemoryViz__tests__gpu_memory_snapshot-adam.cuda0.holders-by-frame.after-event-${moment}.csv`,
    );
    expect(String(csv.data).split('\r\n')[0]).toBe(
      'frame,bytes,share_of_active_percent,allocations,top_frames',
    );
  });
});
