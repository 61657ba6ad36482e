// The box the page's segments picture is laid out for, read off the view (the chart writes it on
// its root at each layout): what the export lays out again, so the exported picture is the one on
// screen. Null when no segments view is shown.

import type { SegmentsBox } from '@shared/chart/segments-scene';

export function segmentsBoxOnPage(page: ParentNode): SegmentsBox | null {
  const root = page.querySelector<HTMLElement>('[data-testid="segments-view"]');
  if (root === null) return null;
  const width = Number(root.dataset['boxWidth']);
  const height = Number(root.dataset['boxHeight']);
  const scale = root.dataset['scale'];
  if (!(width > 0) || !(height > 0) || (scale !== 'fit' && scale !== 'detail')) return null;
  return { width, height, scale };
}
