// `render --view flame|categories` and the app's categories: the pictures hold the figures of the
// moment (the flame graph's root is the active bytes; each sample of the categories chart adds up
// to the active bytes of the timeline there), and resvg reads them.

import { basename } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { defaultDeviceIndex, defaultMoment } from '../../src/shared/analyzed/moments';
import { categorySeries, seriesMoments } from '../../src/shared/holders/category-series';
import { renderCategoriesSvg } from '../../src/shared/render/categories-svg';
import { renderFlameSvg } from '../../src/shared/render/flame-svg';
import { activeBytesAt } from '../../src/shared/holders/alive-rows';
import { analyzeFile } from '../support/analyzed';
import { realSnapshotPaths } from '../support/real-snapshots';

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (_name, path) => {
  it('draws the flame graph and the categories of the default moment', async () => {
    const snapshot = await analyzeFile(path);
    if (snapshot.devices.length === 0) return; // a file with neither segments nor trace entries
    const index = defaultDeviceIndex(snapshot.devices);
    const device = snapshot.devices[index]!;
    const moment = defaultMoment(device);
    const clamped = snapshot.warnings.some((w) => w.includes('the trace does not match'));

    const flame = renderFlameSvg(snapshot, index, { width: 1000, height: 400, moment });
    const root = /class="allocscope-flame" data-root-bytes="(\d+)"/.exec(flame);
    expect(root).not.toBeNull();
    if (!clamped) expect(Number(root![1])).toBe(activeBytesAt(device, moment));
    expect(new Resvg(flame).render().width).toBe(1000);

    const moments = seriesMoments(device.traceLength, 50, [moment]);
    expect(moments).toContain(moment);
    const series = categorySeries(snapshot, device, moments);
    moments.forEach((m, i) => {
      const total = series.bytes.reduce((sum, bytes) => sum + bytes[i]!, 0);
      if (!clamped) expect(total, `moment ${m}`).toBe(activeBytesAt(device, m));
    });
    const chart = renderCategoriesSvg(snapshot, index, { width: 1000, height: 400, moment });
    expect(chart).toContain('class="allocscope-categories"');
    expect(new Resvg(chart).render().width).toBe(1000);
  });
});
