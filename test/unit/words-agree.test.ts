// One rule each (src/shared/format/words.ts, state/segment-groups.ts, analysis/user-frame.ts,
// analyzed/device-times.ts): the app, the exported SVG and the CLI word pools, streams, segment
// types, groups and frames alike, order groups alike, and agree on whether a device has times.
// Checked on every real snapshot, among them a file with private pools (volcengine_verl) and one
// with many raw stream pointers (Maphsge4), so the words under test are really there.

import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeStack } from '@shared/analysis/user-frame';
import {
  buildAnalyzedSnapshot,
  snapshotFiguresOfAnalyzed,
  type AnalyzedSnapshot,
} from '@shared/analyzed/analyzed-snapshot';
import { deviceTimesUsable } from '@shared/analyzed/device-times';
import { defaultMoment } from '@shared/analyzed/moments';
import { createEventAxis, hasUsableTimes } from '@shared/chart/event-axis';
import { poolNameAt, streamNameAt } from '@shared/format/words';
import { topFrameLabel } from '@shared/oom/oom-explainer';
import { buildDeviceReports } from '@shared/report/report-document';
import { renderSegmentsSvg } from '@shared/render/segments-svg';
import { renderTimelineSvg } from '@shared/render/timeline-svg';
import { allocatorStateIndexOf } from '@shared/state/allocator-state';
import { figuresByGroup, smallHoleThreshold } from '@shared/state/memory-figures';
import { readSnapshotFile } from '../../src/cli/read-snapshot-file';
import { runSegments } from '../../src/cli/run-segments';
import { formatReportText } from '../../src/cli/format-report-text';
import { formatSummaryText } from '../../src/cli/format-summary-text';
import { groupLabel, groupSegments } from '../../src/renderer/segments/segment-groups';
import { blockFacts } from '../../src/renderer/segments/block-facts';
import { allocationFacts } from '../../src/renderer/allocations/allocation-facts';
import { traceTimeExtent } from '../../src/renderer/timeline/trace-time-extent';
import { realSnapshotPath, realSnapshotPaths } from '../support/real-snapshots';

const PRIVATE_POOLS = 'volcengine_verl';
const MANY_STREAMS = 'Maphsge4_select_n';

async function analyzed(path: string): Promise<AnalyzedSnapshot> {
  const { model, fileName, fileBytes } = await readSnapshotFile(path);
  return buildAnalyzedSnapshot(model, { fileName, fileBytes });
}

function unescapeXml(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

/** The group headers of an exported segments picture: "TITLE — n segments, …" → TITLE. */
function svgGroupTitles(svg: string): string[] {
  return [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)]
    .map((match) => unescapeXml(match[1]!))
    .filter((text) => / — [\d,]+ segments?, /.test(text))
    .map((text) => text.slice(0, text.indexOf(' — ')));
}

/**
 * The rows of an aligned text table (src/cli/align-columns.ts) whose header starts with
 * `firstHeader`, as objects by header: cells hold spaces, so they are cut at the header's columns.
 */
function textTables(text: string, firstHeader: string): Record<string, string>[][] {
  const lines = text.split('\n');
  const tables: Record<string, string>[][] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i]!;
    if (header.trim().split(/\s{2,}/)[0] !== firstHeader) continue;
    const names = header.trim().split(/\s{2,}/);
    const starts = names.map((name) => header.indexOf(name));
    const rows: Record<string, string>[] = [];
    const indent = header.length - header.trimStart().length;
    // The table goes on while its lines keep the header's indentation.
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim() === '' || line.length - line.trimStart().length !== indent) break;
      const row: Record<string, string> = {};
      names.forEach((name, k) => {
        row[name] = line.slice(starts[k], starts[k + 1] ?? line.length).trim();
      });
      rows.push(row);
    }
    tables.push(rows);
  }
  return tables;
}

const cases = realSnapshotPaths().map((path) => [basename(path), path] as const);

describe.each(cases)('%s', (name, path) => {
  it('the app, the segments SVG and `allocscope segments` word and order groups alike', async () => {
    const snapshot = await analyzed(path);
    const text = await runSegments({
      command: 'segments',
      maxMemory: null,
      file: path,
      device: null,
      moment: null,
      bytes: false,
    });
    const groupTables = textTables(text, 'pool');
    const segmentTables = textTables(text, 'address');
    let tableIndex = 0;
    snapshot.devices.forEach((device, deviceIndex) => {
      const state = allocatorStateIndexOf(snapshot, device).stateAt(defaultMoment(device));
      if (state.segments.length === 0) return;
      // The app: its segments view's groups and their header labels.
      const app = groupSegments(state.segments).map((group) => groupLabel(snapshot, group));
      // The exported picture, wide enough that no title is cut short.
      const svg = svgGroupTitles(
        renderSegmentsSvg(snapshot, deviceIndex, state, {
          box: { width: 20_000, height: 600, scale: 'detail' },
        }),
      );
      expect(svg).toEqual(app);
      // The CLI: the groups table (pool, stream, type) in the same order, and every segment's
      // pool and stream as the app's block details name them.
      const groups = groupTables[tableIndex]!;
      const segments = segmentTables[tableIndex]!;
      tableIndex++;
      expect(groups.map((row) => `${row.pool} · ${row.stream} · ${row.type} segments`)).toEqual(
        app.map((label) => label.replace('segments of unknown type', 'unknown segments')),
      );
      expect(segments).toHaveLength(state.segments.length);
      state.segments.forEach((segment, s) => {
        expect(segments[s]!.address).toBe(`0x${segment.address.toString(16)}`);
        if (segment.endBlock === segment.firstBlock) return; // no block to ask the app about
        const facts = blockFacts(snapshot, state, segment.firstBlock)!;
        expect([segments[s]!.pool, segments[s]!.stream, segments[s]!.type]).toEqual([
          facts.segment.pool,
          facts.segment.stream,
          facts.segment.sizeClass,
        ]);
      });
    });
    expect(tableIndex).toBe(groupTables.length);
  });

  it('the app and `allocscope report` word the groups at the active peak alike', async () => {
    const snapshot = await analyzed(path);
    const text = formatReportText(snapshot, buildDeviceReports(snapshot), {});
    const tables = textTables(text, 'pool');
    let tableIndex = 0;
    snapshot.devices.forEach((device) => {
      const state = allocatorStateIndexOf(snapshot, device).stateAt(
        device.figures.active.peakEventIndex,
      );
      const figures = figuresByGroup(state, smallHoleThreshold(device));
      if (figures.length === 0) return;
      const rows = tables[tableIndex++]!;
      expect(rows.map((row) => [row.pool, row.stream])).toEqual(
        figures.map((group) => [
          poolNameAt(snapshot.pools, group.poolIndex),
          streamNameAt(snapshot.streams, group.streamId),
        ]),
      );
      // The app's labels start with the same words, in the same order.
      const app = groupSegments(state.segments).map((group) => groupLabel(snapshot, group));
      expect(app.map((label) => label.split(' · ').slice(0, 2))).toEqual(
        rows.map((row) => [row.pool, row.stream]),
      );
    });
  });

  it('names each allocation’s stream as the segments listing names streams', async () => {
    const snapshot = await analyzed(path);
    const names = new Set(snapshot.streams.map((_raw, id) => streamNameAt(snapshot.streams, id)));
    for (const device of snapshot.devices) {
      for (let row = 0; row < Math.min(device.allocations.count, 2_000); row++)
        expect(names).toContain(allocationFacts(snapshot, device, row).stream);
    }
  });

  it('the app, the OOM explainer and `allocscope summary` pick and word the same top frame', async () => {
    const snapshot = await analyzed(path);
    const summary = formatSummaryText(snapshotFiguresOfAnalyzed(snapshot), { exactBytes: false });
    for (const device of snapshot.devices) {
      for (const allocation of device.figures.largestAtPeak) {
        const app = describeStack(snapshot, allocation.stackId);
        expect(topFrameLabel(snapshot, allocation.stackId) ?? '(no stack recorded)').toBe(app);
        const address = `0x${allocation.address.toString(16)}`;
        const line = summary.split('\n').find((candidate) => candidate.includes(`  ${address}  `));
        expect(line, address).toBeDefined();
        expect(line!.endsWith(`  ${app}`), `${line} ends with ${app}`).toBe(true);
      }
    }
  });

  it('agrees everywhere on whether a device’s times are usable', async () => {
    const snapshot = await analyzed(path);
    for (const [deviceIndex, device] of snapshot.devices.entries()) {
      const usable = deviceTimesUsable(device);
      expect(hasUsableTimes(device)).toBe(usable);
      expect(createEventAxis(device, 'time').mode === 'time' || device.traceLength === 0).toBe(
        usable || device.traceLength === 0,
      );
      expect(traceTimeExtent(device.timeUs, device.traceLength) !== null).toBe(usable);
      const svg = renderTimelineSvg(snapshot, deviceIndex, { width: 800, height: 400 });
      // The title line says how much time is shown exactly when the axis is in time.
      const title = /<title>([^<]*)<\/title>/.exec(svg)![1]!;
      expect(/ shown( ·|$)/.test(title)).toBe(usable);
    }
    if (name.startsWith(MANY_STREAMS)) expect(snapshot.devices.some(deviceTimesUsable)).toBe(false);
  });
});

describe('the real files under test hold the words under test', () => {
  it('has private pools in one file and raw stream pointers in another', async () => {
    const pools = await analyzed(realSnapshotPath(PRIVATE_POOLS));
    expect(pools.pools.map((_id, index) => poolNameAt(pools.pools, index))).toEqual([
      'default pool',
      'private pool (0,1)',
      'private pool (0,2)',
    ]);
    const streams = await analyzed(realSnapshotPath(MANY_STREAMS));
    expect(streams.streams.length).toBeGreaterThan(2);
    expect(streamNameAt(streams.streams, 0)).toBe('default stream');
    expect(streamNameAt(streams.streams, 1)).toBe('stream 0x759c4b0');
  });
});
