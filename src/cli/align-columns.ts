// Plain-text tables for the CLI's reports: columns padded to their widest cell, two spaces apart.

/**
 * Pads every column to its widest cell (the last one only when right-aligned); trailing spaces
 * trimmed. Columns are left-aligned unless `align` says right (figures).
 */
export function alignColumns(
  rows: string[][],
  align: readonly ('left' | 'right')[] = [],
): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
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
