// Plain-text tables for the CLI's reports: columns padded to their widest cell, two spaces apart.

/** Pads every column but the last to its widest cell; trailing spaces trimmed. */
export function alignColumns(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}
