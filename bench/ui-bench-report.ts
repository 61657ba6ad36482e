// The app benchmark's table, with the targets beside the figures (medians of the runs) and the
// host's load, since the figures move with it.

import type { UiBenchRow } from './ui-bench';

const FIRST_PAINT_TARGET_SECONDS: Readonly<Record<string, number>> = { '100MB': 0.8, '1GB': 4 };
const FRAME_P95_TARGET_MS = 16;
const LONG_TASK_TARGET_MS = 50;
/** First paint through `allocscope serve`, at most this many times the picked file's. */
const SERVE_RATIO_TARGET = 1.3;

export function formatUiTable(rows: readonly UiBenchRow[]): string {
  const header = [
    'app (Chromium)',
    'allocations',
    'first curves',
    'first paint',
    'target',
    'zoom/pan p50',
    'p95',
    'bursts p95',
    'target',
    'opening: tasks > 50 ms',
    'zooming: longest task',
    'target',
    'runs',
    'load',
  ];
  const lines = rows.map((row) => {
    const paintTarget = FIRST_PAINT_TARGET_SECONDS[row.label];
    const picked = rows.find((other) => other.label === row.label && other.via === 'disk');
    const ratio = picked === undefined ? NaN : row.firstPaintSeconds / picked.firstPaintSeconds;
    return [
      row.via === 'serve' ? `${row.label} via serve` : row.label,
      Number.isFinite(row.allocations) ? row.allocations.toLocaleString('en-US') : '?',
      row.firstCurvesSeconds === null ? '-' : `${row.firstCurvesSeconds.toFixed(2)} s`,
      `${row.firstPaintSeconds.toFixed(2)} s`,
      row.via === 'serve'
        ? `${ratio.toFixed(2)}x picked, <= ${SERVE_RATIO_TARGET}x ${ratio <= SERVE_RATIO_TARGET ? 'ok' : 'MISSED'}`
        : paintTarget === undefined
          ? '-'
          : `<= ${paintTarget} s ${row.firstPaintSeconds <= paintTarget ? 'ok' : 'MISSED'}`,
      `${row.frameP50Ms.toFixed(1)} ms`,
      `${row.frameP95Ms.toFixed(1)} ms`,
      `${row.burstP95Ms.toFixed(1)} ms`,
      `<= ${FRAME_P95_TARGET_MS} ms ${Math.max(row.frameP95Ms, row.burstP95Ms) <= FRAME_P95_TARGET_MS ? 'ok' : 'MISSED'}`,
      row.openingLongTasks === 0 && row.openingLongestTaskMs === 0
        ? 'none'
        : `${row.openingLongTasks} a run, longest ${row.openingLongestTaskMs.toFixed(0)} ms`,
      row.longTasks === 0
        ? 'none > 50 ms'
        : `${row.longestTaskMs.toFixed(0)} ms (${row.longTasks})`,
      `<= ${LONG_TASK_TARGET_MS} ms ${row.longTasks === 0 ? 'ok' : 'MISSED'}`,
      String(row.runs),
      row.load.toFixed(2),
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
