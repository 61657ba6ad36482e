// Plain-text tables for the CLI's reports: columns padded to their widest cell, two spaces apart.
// A cell may be a file's text (a frame, an annotation): it is escaped as one field before it is
// measured, so that a line break, tab or escape sequence in it neither breaks the table nor
// drives the terminal.

import { terminalField } from '@shared/format/terminal-safe';

/**
 * Pads every column to its widest cell (the last one only when right-aligned); trailing spaces
 * trimmed. Columns are left-aligned unless `align` says right (figures).
 */
export function alignColumns(
  rows: string[][],
  align: readonly ('left' | 'right')[] = [],
): string[] {
  const cells = rows.map((row) => row.map(terminalField));
  const widths: number[] = [];
  for (const row of cells)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return cells.map((row) =>
    row
      .map((cell, i) =>
        align[i] === 'right'
          ? cell.padStart(widths[i]!)
          : i === row.length - 1
            ? cell
            : cell.padEnd(widths[i]!),
      )
      .join('  ')
      .trimEnd(),
  );
}
