// A memory timeline's figure (or a trace's given its timeline): the bytes alive at the active
// peak by PyTorch's category, one line under the toolbar, exact bytes beside the human units.
// The same rows as `allocscope summary` (DeviceFigures.categoriesAtPeak); categories with no
// bytes there are left out (the title lists all).

import type { JSX } from 'react';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import { CATEGORY_NAMES, categoryOfFileText } from '@shared/holders/categories';

/** Where the row is in allocscope's own categories (the timeline's colours, Who holds it). */
function oursOf(category: string): string {
  const ours = categoryOfFileText(category);
  return ours === null
    ? "not one of allocscope's categories"
    : `"${CATEGORY_NAMES[ours]}" in the timeline's colours and Who holds it`;
}

export function CategoriesAtPeak({ device }: { device: AnalyzedDevice }): JSX.Element | null {
  const rows = device.figures.categoriesAtPeak;
  if (rows === undefined) return null;
  const { active } = device.figures;
  const title = rows.map((row) => `${row.category} ${formatExactBytes(row.bytes)} B`).join(' · ');
  return (
    <p className="categories-at-peak" data-testid="categories-at-peak" title={title}>
      <span className="categories-at-peak-lead">
        At the active peak ({formatBytes(active.peakBytes)}, event {active.peakEventIndex}), by
        PyTorch&apos;s category:
      </span>
      {rows
        .filter((row) => row.bytes > 0)
        .map((row) => (
          <span
            key={row.category}
            className="categories-at-peak-item"
            data-category={row.category}
            data-bytes={String(row.bytes)}
            title={`${row.category}: ${formatExactBytes(row.bytes)} bytes in ${row.allocations} allocations; ${oursOf(row.category)}`}
          >
            <strong>{row.category}</strong> {formatBytes(row.bytes)}{' '}
            <span className="categories-at-peak-exact">({formatExactBytes(row.bytes)} B)</span>
          </span>
        ))}
    </p>
  );
}
