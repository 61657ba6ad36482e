// The one palette reaches the page three ways: the CSS custom properties, the canvas charts'
// themes and the SVG/PNG exports' theme. Here all three are read back and compared as colours
// (red, green, blue, alpha), in light and dark.

import { describe, expect, it } from 'vitest';
import { bandColorHex, hslToHex } from '@shared/chart/band-colors';
import { palette, THEME_NAMES, type Paint } from '@shared/render/palette';
import { paletteCssVariables } from '@shared/render/palette-css';
import { renderTheme } from '@shared/render/render-theme';
import { fragmentationTheme } from '../fragmentation/fragmentation-theme';
import { segmentsTheme } from '../segments/segments-theme';
import { timelineTheme } from '../timeline/timeline-theme';

type Rgba = [number, number, number, number];

/** #rrggbb, rgb(r g b / a%) or hsl(h s% l%) as red, green, blue (0-255) and alpha (0-1). */
function rgba(color: string | Paint): Rgba {
  if (typeof color !== 'string') {
    const [r, g, b] = rgba(color.color);
    return [r, g, b, color.opacity];
  }
  let match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (match) return [...match.slice(1, 4).map((hex) => Number.parseInt(hex, 16)), 1] as Rgba;
  match = /^rgb\((\d+) (\d+) (\d+) \/ ([\d.]+)%\)$/.exec(color);
  if (match) return [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4]) / 100];
  match = /^hsl\(([\d.]+) ([\d.]+)% ([\d.]+)%\)$/.exec(color);
  if (match) {
    return rgba(hslToHex(Number(match[1]), Number(match[2]), Number(match[3])));
  }
  throw new Error(`not a colour this test reads: ${color}`);
}

function expectSame(label: string, ...colors: (string | Paint)[]): void {
  const [first, ...rest] = colors.map(rgba);
  for (const other of rest) {
    expect(other.slice(0, 3), label).toEqual(first!.slice(0, 3));
    expect(other[3], label).toBeCloseTo(first![3], 6);
  }
}

describe.each(THEME_NAMES)('the %s palette', (name) => {
  const p = palette(name);
  const svg = renderTheme(name);
  const css = paletteCssVariables(name);
  const timeline = timelineTheme(p);
  const segments = segmentsTheme(p);
  const fragmentation = fragmentationTheme(p);
  const cssVar = (property: string): string => {
    const value = css[property];
    if (value === undefined) throw new Error(`${property} is not set`);
    return value;
  };

  it('gives the timeline the same colours in SVG, on the canvas and in CSS', () => {
    const shared = [
      ['grid', svg.grid, timeline.grid, '--tl-grid'],
      ['other', svg.otherFill, timeline.otherFill, '--tl-other'],
      ['active line', svg.activeLine, timeline.activeLine, '--tl-active-line'],
      ['reserved line', svg.reservedLine, timeline.reservedLine, '--tl-reserved-line'],
      ['reserved fill', svg.reservedFill, timeline.reservedFill, '--tl-reserved-fill'],
      ['active peak', svg.peakActive, timeline.peakActive, '--tl-peak-active'],
      ['reserved peak', svg.peakReserved, timeline.peakReserved, '--tl-peak-reserved'],
      ['oom', svg.oom, timeline.oom, '--tl-oom'],
      ['moment', svg.moment, timeline.moment, '--tl-moment'],
      ['annotation fill', svg.annotationFill, timeline.annotationFill, '--tl-annotation-fill'],
      ['annotation lane', svg.annotationLane, timeline.annotationLane, '--tl-annotation-lane'],
      ['band separator', svg.bandSeparator, timeline.bandSeparator, '--tl-band-separator'],
      ['no stack', svg.bands.noStack, timeline.colorOfStack(-1), '--tl-band-no-stack'],
    ] as const;
    for (const [label, inSvg, onCanvas, property] of shared) {
      expectSame(label, inSvg, onCanvas, cssVar(property));
    }
  });

  it('colours every band alike in SVG, on the canvas and in CSS', () => {
    expect(cssVar('--tl-band-saturation')).toBe(String(svg.bands.saturation));
    expect(cssVar('--tl-band-lightness')).toBe(String(svg.bands.lightness[0]));
    expect(cssVar('--tl-band-lightness-alt')).toBe(String(svg.bands.lightness[1]));
    expect(timeline.bands).toEqual(svg.bands);
    for (let stackId = 0; stackId < 48; stackId++) {
      expectSame(
        `stack ${stackId}`,
        bandColorHex(stackId, svg.bands),
        timeline.colorOfStack(stackId),
      );
    }
  });

  it('gives the exports the page’s background and text, and its axis line', () => {
    expectSame('background', svg.background, cssVar('--surface'));
    expectSame('text', svg.text, cssVar('--text'));
    expectSame('muted text', svg.textMuted, cssVar('--text-muted'));
    expectSame('axis line', svg.axisLine, cssVar('--tl-axis-line'));
  });

  it('gives the timeline canvas the CSS colours of what only the page draws', () => {
    expectSame('selection', timeline.selection, cssVar('--tl-selection'));
    expectSame('selection halo', timeline.selectionHalo, cssVar('--tl-selection-halo'));
    expectSame('hover', timeline.hover, cssVar('--tl-hover'));
    expectSame('crosshair', timeline.crosshair, cssVar('--tl-crosshair'));
    expectSame('overview active', timeline.overviewActive, cssVar('--tl-overview-active'));
    expectSame('overview reserved', timeline.overviewReserved, cssVar('--tl-overview-reserved'));
  });

  it('gives the segments canvas the colours of its legend', () => {
    expectSame('allocated', segments.allocated, cssVar('--seg-allocated'));
    expectSame('pending free', segments.pendingFree, cssVar('--seg-pending-free'));
    expectSame('free', segments.free, cssVar('--seg-free'));
    expectSame('outline', segments.outline, cssVar('--seg-outline'));
    expectSame('expandable', segments.expandable, cssVar('--seg-expandable'));
    expectSame('largest hole', segments.largestHole, cssVar('--seg-largest-hole'));
    expectSame('hover', segments.hover, cssVar('--seg-hover'));
    expectSame('selection', segments.selection, cssVar('--seg-selection'));
    expectSame('selection halo', segments.selectionHalo, cssVar('--seg-selection-halo'));
  });

  it('takes the exported segments picture’s colours from the palette too', () => {
    const exported = p.exportedSegments;
    expect(svg.allocatedBlock).toBe(exported.allocatedBlock);
    expect(svg.pendingFreeBlock).toBe(exported.pendingFreeBlock);
    expect(svg.cachedFreeBlock).toBe(exported.cachedFreeBlock);
    expect(svg.segmentOutline).toBe(exported.segmentOutline);
    expect(svg.expandableOutline).toBe(exported.expandableOutline);
    expect(svg.largestHole).toBe(exported.largestHole);
  });

  it('gives the fragmentation canvas its legend’s colours and the timeline’s shared ones', () => {
    expectSame('cached', fragmentation.cached, cssVar('--frag-cached'));
    expectSame('cached fill', fragmentation.cachedFill, cssVar('--frag-cached-fill'));
    expectSame('largest', fragmentation.largest, cssVar('--frag-largest'));
    expectSame('waste', fragmentation.waste, cssVar('--frag-waste'));
    expectSame('small', fragmentation.small, cssVar('--frag-small'));
    expectSame('small fill', fragmentation.smallFill, cssVar('--frag-small-fill'));
    expectSame('grid', fragmentation.grid, svg.grid, cssVar('--tl-grid'));
    expectSame('moment', fragmentation.moment, svg.moment, cssVar('--tl-moment'));
    expectSame('oom', fragmentation.oom, svg.oom, cssVar('--tl-oom'));
    expectSame('peak', fragmentation.peak, svg.peakActive, cssVar('--tl-peak-active'));
    expectSame('crosshair', fragmentation.crosshair, cssVar('--tl-crosshair'));
  });
});

describe('the palette’s CSS custom properties', () => {
  it('are the same names in light and dark', () => {
    expect(Object.keys(paletteCssVariables('dark'))).toEqual(
      Object.keys(paletteCssVariables('light')),
    );
  });
});
