// The app benchmark's table, with the targets beside the figures.

import type { UiBenchRow } from './ui-bench';

const FIRST_PAINT_TARGET_SECONDS: Readonly<Record<string, number>> = { '100MB': 1, '1GB': 5 };
const FRAME_P95_TARGET_MS = 16;

export function formatUiTable(rows: readonly UiBenchRow[]): string {
  const header = [
    'app (Chromium)',
    'allocations',
    'first paint',
    'target',
    'zoom/pan p50',
    'p95',
    'target',
  ];
  const lines = rows.map((row) => {
    const paintTarget = FIRST_PAINT_TARGET_SECONDS[row.label];
    return [
      row.label,
      Number.isFinite(row.allocations) ? row.allocations.toLocaleString('en-US') : '?',
      `${row.firstPaintSeconds.toFixed(2)} s`,
      paintTarget === undefined
        ? '-'
        : `<= ${paintTarget} s ${row.firstPaintSeconds <= paintTarget ? 'ok' : 'MISSED'}`,
      `${row.frameP50Ms.toFixed(1)} ms`,
      `${row.frameP95Ms.toFixed(1)} ms`,
      `<= ${FRAME_P95_TARGET_MS} ms ${row.frameP95Ms <= FRAME_P95_TARGET_MS ? 'ok' : 'MISSED'}`,
    ];
  });
  const widths = header.map((title, i) =>
    Math.max(title.length, ...lines.map((line) => line[i]!.length)),
  );
  const format = (cells: string[]): string =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [format(header), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join(
    '\n',
  );
}
