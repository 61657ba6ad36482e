// The summary's lines of the bytes alive at the active peak by PyTorch's category (a memory
// timeline's, or a trace's given its timeline): the figures PyTorch's own plot shows at its top.

import type { DeviceFigures } from '@shared/analyzed/device-figures';
import { FIGURE } from '@shared/format/glossary';
import { countOf } from '@shared/format/plural';
import { alignColumns } from './align-columns';

export function categoriesAtPeakLines(
  device: DeviceFigures,
  size: (bytes: number) => string,
): string[] {
  const rows = device.categoriesAtPeak;
  if (rows === undefined) return [];
  const lines = [`  alive at the ${FIGURE.activePeak} by PyTorch's category (memory timeline):`];
  const table = rows.map((row) => [
    row.category,
    size(row.bytes),
    row.allocations === 0 ? '' : countOf(row.allocations, 'allocation'),
  ]);
  lines.push(...alignColumns(table).map((row) => `    ${row}`));
  return lines;
}
