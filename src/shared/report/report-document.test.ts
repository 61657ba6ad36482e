// The `allocscope.report/1` document on the 12 real snapshots: it validates against its schema,
// its summary is the `allocscope summary --json` document, and every figure in it is the figure of
// the reconstructed allocator state at the same moment.

import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAllocatorStateIndex } from '@shared/state/allocator-state';
import { figuresByGroup, figuresOfState, smallHoleThreshold } from '@shared/state/memory-figures';
import { loadAnalyzedSnapshot } from '../../cli/load-analyzed-snapshot';
import { realSnapshotPath, realSnapshotPaths } from '../../../test/support/real-snapshots';
import { summarizeFile } from '../../../test/support/summarize';
import { buildReportDocument, REPORT_SCHEMA, reportDocumentSchema } from './report-document';

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (_name, path) => {
  it('validates, carries the summary, and its figures are those of the state', async () => {
    const snapshot = await loadAnalyzedSnapshot(path);
    const document = buildReportDocument(snapshot);
    const parsed = reportDocumentSchema.safeParse(JSON.parse(JSON.stringify(document)));
    expect(parsed.error).toBeUndefined();
    expect(document.schema).toBe(REPORT_SCHEMA);
    expect(document.file).toBe(basename(path));

    const summary = await summarizeFile(path, 10);
    const { warnings: _ours, ...ourSummary } = document.summary;
    const { warnings: _theirs, ...theirSummary } = summary;
    expect(ourSummary).toEqual(theirSummary);

    expect(document.devices.map((d) => d.device)).toEqual(snapshot.devices.map((d) => d.device));
    document.devices.forEach((report, deviceIndex) => {
      const device = snapshot.devices[deviceIndex]!;
      const index = createAllocatorStateIndex(device, snapshot.allocatorSettings);
      const threshold = smallHoleThreshold(device);
      expect(report.smallHoleThresholdBytes).toBe(threshold);

      const peak = device.figures.active.peakEventIndex;
      const atPeak = report.atPeak!;
      expect(atPeak.event).toBe(peak);
      const peakState = index.stateAt(peak);
      expect(atPeak.totals).toEqual(figuresOfState(peakState, threshold));
      const groups = figuresByGroup(peakState, threshold);
      expect(atPeak.groups.map((g) => g.reservedBytes)).toEqual(groups.map((g) => g.reservedBytes));
      expect(atPeak.groups.map((g) => [g.pool, g.stream])).toEqual(
        groups.map((g) => [snapshot.pools[g.poolIndex], snapshot.streams[g.streamId]]),
      );
      expect(report.atMoment).toBeNull();

      const series = report.fragmentationSeries!;
      expect(series.moments).toContain(peak);
      for (const oom of device.ooms) expect(series.moments).toContain(oom.eventIndex);
      expect(series.moments[series.moments.length - 1]).toBe(device.traceLength - 1);
      for (const key of [
        'timeUs',
        'reservedBytes',
        'activeBytes',
        'cachedFreeBytes',
        'largestFreeBytes',
        'smallFreeBytes',
        'internalWasteBytes',
        'freeBlockCount',
      ] as const) {
        expect(series[key]).toHaveLength(series.moments.length);
      }
      // a few sampled moments, checked against the state itself
      const picks = new Set([0, series.moments.length >> 1, series.moments.length - 1]);
      for (const i of picks) {
        const figures = figuresOfState(index.stateAt(series.moments[i]!), threshold);
        expect(series.reservedBytes[i]).toBe(figures.reservedBytes);
        expect(series.activeBytes[i]).toBe(figures.activeBytes);
        expect(series.cachedFreeBytes[i]).toBe(figures.cachedFreeBytes);
        expect(series.largestFreeBytes[i]).toBe(figures.largestFreeBytes);
        expect(series.freeBlockCount[i]).toBe(figures.freeBlockCount);
      }

      expect(report.ooms.map((o) => o.event)).toEqual(device.ooms.map((o) => o.eventIndex));
      for (const oom of report.ooms) {
        const figures = figuresOfState(index.stateAt(oom.event), threshold);
        expect([oom.reservedBytes, oom.cachedFreeBytes, oom.largestFreeBytes]).toEqual([
          figures.reservedBytes,
          figures.cachedFreeBytes,
          figures.largestFreeBytes,
        ]);
      }
      if (device.ooms.length === 0) {
        expect(report.whatIf?.verdict).toBe('what-if');
        expect(report.whatIf?.event).toBe(peak);
        expect(report.whatIf?.cachedFreeBytes).toBe(report.atPeak!.totals.cachedFreeBytes);
      } else {
        expect(report.whatIf).toBeNull();
      }
    });
  });
});

describe('options', () => {
  it('limits the devices and adds the figures of a chosen moment', async () => {
    const snapshot = await loadAnalyzedSnapshot(realSnapshotPath('Constructor-Sun'));
    const deviceIndex = snapshot.devices.findIndex((d) => d.device === 1);
    const document = buildReportDocument(snapshot, {
      devices: [deviceIndex],
      moment: { deviceIndex, event: 300 },
    });
    expect(reportDocumentSchema.safeParse(document).success).toBe(true);
    expect(document.devices.map((d) => d.device)).toEqual([1]);
    expect(document.summary.devices.map((d) => d.device)).toEqual([1]);
    const report = document.devices[0]!;
    expect(report.atMoment?.event).toBe(300);
    expect(report.fragmentationSeries!.moments).toContain(300);
    const index = createAllocatorStateIndex(
      snapshot.devices[deviceIndex]!,
      snapshot.allocatorSettings,
    );
    expect(report.atMoment?.totals).toEqual(
      figuresOfState(index.stateAt(300), report.smallHoleThresholdBytes),
    );
    expect(report.ooms).toHaveLength(1);
    expect(report.ooms[0]!.verdict).toBe('out-of-memory');
    expect(report.ooms[0]!.holders[0]!.frames.length).toBeGreaterThan(0);
  });

  it('refuses a device index the view does not have', async () => {
    const snapshot = await loadAnalyzedSnapshot(realSnapshotPath('a0kuma'));
    expect(() => buildReportDocument(snapshot, { devices: [5] })).toThrow(/no device at index 5/);
  });
});
