// Every kind of mark the exported timeline draws is named in its legend, on every real snapshot,
// coloured by stack and by allocation; and the legend names nothing the picture cannot hold.

import { describe, expect, it } from 'vitest';
import { analyzeFile } from '../../../test/support/analyzed';
import { realSnapshotPath, realSnapshotPaths } from '../../../test/support/real-snapshots';
import { COLOR_BYS } from '../holders/band-coloring';
import { pairAnnotations } from '../chart/annotation-spans';
import { TIMELINE_MARK_KINDS, timelineMarks } from '../chart/timeline-marks';
import { defaultMoment } from '../analyzed/moments';
import { renderTimelineSvg } from './timeline-svg';

const drawnKinds = (svg: string): Set<string> =>
  new Set([...svg.matchAll(/data-mark="([a-z-]+)"/g)].map((match) => match[1]!));
const legendKinds = (svg: string): Set<string> =>
  new Set([...svg.matchAll(/data-legend="([a-z-]+)"/g)].map((match) => match[1]!));

describe.each(realSnapshotPaths())('the exported timeline of %s', (path) => {
  it('names every kind of mark it draws in its legend', async () => {
    const snapshot = await analyzeFile(path);
    snapshot.devices.forEach((device, index) => {
      for (const colorBy of COLOR_BYS) {
        const svg = renderTimelineSvg(snapshot, index, {
          width: 1280,
          height: 600,
          colorBy,
          moment: defaultMoment(device),
        });
        const drawn = drawnKinds(svg);
        const legend = legendKinds(svg);
        for (const kind of drawn) expect(legend, `${kind} (${colorBy})`).toContain(kind);
        for (const kind of legend) expect(TIMELINE_MARK_KINDS).toContain(kind);
        // The stackless allocations are named exactly when the device has some.
        const stackless = device.allocations.stackId.some((stackId) => stackId < 0);
        expect(legend.has('no-stack')).toBe(stackless);
        expect(svg.includes('no stack recorded')).toBe(stackless);
      }
    });
  });
});

describe('the exported timeline', () => {
  it('names the annotation spans that are wide enough, in the lane above the bands', async () => {
    const snapshot = await analyzeFile(realSnapshotPath('LINYUN'));
    const device = snapshot.devices[0]!;
    const spans = pairAnnotations(snapshot.annotations, device.device);
    expect(spans.length).toBeGreaterThan(0);
    const svg = renderTimelineSvg(snapshot, 0, { width: 1600, height: 600, xMode: 'time' });
    const names = /<g class="scene-text"[^>]*data-mark="annotations">(.*?)<\/g>/.exec(svg);
    expect(names).not.toBeNull();
    const texts = [...names![1]!.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
    expect(texts.length).toBeGreaterThan(0);
    // Each label is a span's name, whole or cut with an ellipsis.
    for (const text of texts) {
      const stem = text.endsWith('…') ? text.slice(0, -1) : text;
      expect(
        spans.some((span) => span.name.startsWith(stem)),
        text,
      ).toBe(true);
    }
    // The names are drawn after (over) the bands.
    expect(svg.indexOf('class="bands"')).toBeGreaterThan(0);
    expect(names!.index).toBeGreaterThan(svg.indexOf('class="bands"'));
  });

  it('colours bands by allocation when asked, by stack otherwise', async () => {
    const snapshot = await analyzeFile(realSnapshotPath('Maphsge4'));
    const options = { width: 1280, height: 600 };
    const byStack = renderTimelineSvg(snapshot, 0, options);
    expect(renderTimelineSvg(snapshot, 0, { ...options, colorBy: 'stack' })).toBe(byStack);
    const byAllocation = renderTimelineSvg(snapshot, 0, { ...options, colorBy: 'allocation' });
    expect(byAllocation).not.toBe(byStack);
    expect(byAllocation).toContain('allocations (colour = allocation)');
    expect(byStack).toContain('allocations (colour = stack)');
  });
});

describe('timelineMarks', () => {
  it('lists every kind when the picture holds everything, and only what it holds otherwise', () => {
    const all = {
      coloring: { name: 'stack' },
      noStack: true,
      trace: true,
      ooms: true,
      annotations: true,
      moment: true,
      steps: true,
      phases: true,
    };
    expect(timelineMarks(all).map((mark) => mark.kind)).toEqual([...TIMELINE_MARK_KINDS]);
    const none = {
      ...all,
      noStack: false,
      trace: false,
      ooms: false,
      annotations: false,
      moment: false,
      steps: false,
      phases: false,
    };
    expect(timelineMarks(none).map((mark) => mark.kind)).toEqual([
      'bands',
      'other',
      'active',
      'reserved',
    ]);
  });
});
