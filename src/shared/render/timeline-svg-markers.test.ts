import { describe, expect, it } from 'vitest';
import type { EventMarker } from '../chart/timeline-markers';
import { renderTheme } from './render-theme';
import { markerLabels, markerLines, markerStyles, momentLine } from './timeline-svg-markers';

const theme = renderTheme('light');
const styles = markerStyles(theme);
const plot = { left: 50, top: 60, width: 500, height: 200 };
const markerX = (event: number): number => 50 + event * 10;

describe('marker lines', () => {
  it('draws odd widths on half pixels, dashed as their kind', () => {
    const markers = [
      { kind: 'peak-active', event: 3, label: 'peak' },
      { kind: 'oom', event: 10.2, label: 'OOM' },
    ] as EventMarker[];
    const [peak, oom] = markerLines(markers, markerX, plot, styles);
    expect(peak).toBe(
      `<path d="M80.5 60v200" stroke="${theme.peakActive}" stroke-width="1" stroke-dasharray="5 3" data-mark="peak-active"/>`,
    );
    expect(oom).toBe(
      `<path d="M152 60v200" stroke="${theme.oom}" stroke-width="2" data-mark="oom"/>`,
    );
  });

  it('marks the moment with a crisp line', () => {
    expect(momentLine(99.7, plot, theme)).toBe(
      `<path d="M100.5 60v200" stroke="${theme.moment}" stroke-width="1" data-mark="moment"/>`,
    );
  });
});

describe('markerLabels', () => {
  it('labels the markers inside the plot, kept within it', () => {
    const markers = [
      { kind: 'peak-active', event: 0, label: 'peak active' },
      { kind: 'oom', event: 100, label: 'OOM' },
    ] as EventMarker[];
    const labels = markerLabels(markers, markerX, plot, styles);
    expect(labels.match(/<text /g)).toHaveLength(1);
    expect(labels).toContain('>peak active</text>');
    expect(labels).toContain('text-anchor="middle"');
  });
});
