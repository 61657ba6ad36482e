// The figures block of the exported OOM explainer: what the request met, as the app's OOM tab
// lists them (label, human units, exact bytes), in two columns.

import { FIGURE, figureLabel } from '../format/glossary';
import { formatBytes, formatExactBytes } from '../format/units';
import { segmentGroupName } from '../format/words';
import type { OomExplanation } from '../oom/oom-explanation';
import type { RenderTheme } from './render-theme';
import { fitText, svgText } from './svg-markup';

export interface OomFigure {
  label: string;
  /** Human units; '—' when not recorded. */
  value: string;
  /** Exact bytes ("12,582,912 B"), or a note. */
  detail: string;
}

/** The figures the OOM tab shows, in its order and words. */
export function oomFigures(e: OomExplanation): OomFigure[] {
  const bytes = (label: string, value: number | null, note = ''): OomFigure => ({
    label,
    value: value === null ? '—' : formatBytes(value),
    detail: [value === null ? 'not recorded' : `${formatExactBytes(value)} B`, note]
      .filter((part) => part !== '')
      .join(' · '),
  });
  const where = segmentGroupName(e.pool, e.stream, e.segmentType);
  const figures: OomFigure[] = [];
  if (e.requestedBytes !== null) figures.push(bytes('Requested', e.requestedBytes));
  if (e.roundedRequestBytes !== null) figures.push(bytes('Rounded request', e.roundedRequestBytes));
  figures.push(
    bytes('Free on the device (CUDA)', e.deviceFreeBytes),
    bytes('Reserved by PyTorch', e.reservedBytes),
    bytes(figureLabel(FIGURE.active), e.activeBytes),
    bytes('Of which cached free', e.cachedFreeBytes, 'reserved but holding no tensor'),
    bytes('Largest free block', e.largestFreeBytes, 'anywhere in the reserve'),
    bytes('Free where the request goes', e.poolCachedFreeBytes, where),
    bytes('Largest free block there', e.poolLargestFreeBytes, where),
    { label: 'Expandable segments', value: e.expandableSegments ? 'on' : 'off', detail: '' },
  );
  return figures;
}

export const OOM_FIGURE_ROW = 17;

/** Two columns of figures from `top`; returns the markup and the height used. */
export function oomFiguresMarkup(
  figures: readonly OomFigure[],
  left: number,
  top: number,
  width: number,
  theme: RenderTheme,
): { markup: string; height: number } {
  const rows = Math.ceil(figures.length / 2);
  const columnWidth = width / 2;
  const parts: string[] = [];
  figures.forEach((figure, i) => {
    const column = Math.floor(i / rows);
    const x = left + column * columnWidth;
    const y = top + 12 + (i % rows) * OOM_FIGURE_ROW;
    parts.push(svgText(fitText(figure.label, 190, 11), { x, y, fill: theme.textMuted }));
    parts.push(
      svgText(figure.value, { x: x + 280, y, fill: theme.text, anchor: 'end', weight: 'bold' }),
    );
    if (figure.detail !== '')
      parts.push(
        svgText(fitText(figure.detail, columnWidth - 300, 10), {
          x: x + 288,
          y,
          fill: theme.textMuted,
          size: 10,
        }),
      );
  });
  return {
    markup: `<g class="oom-figures">${parts.join('')}</g>`,
    height: rows * OOM_FIGURE_ROW + 6,
  };
}
