// The benchmark's table: figures beside their targets (1 GB summary in <= 5 s, decoding faster
// per MB than Python's pickle.load, peak RSS <= 1.5x the file size).

import type { CliTimings } from './cli-output';

/** Seconds per GB of input allowed for the whole summary command. */
export const TARGET_SECONDS_PER_GB = 5;
export const TARGET_RSS_FACTOR = 1.5;

export interface CliRow {
  readonly label: string;
  readonly fileBytes: number;
  readonly traceEntries: number;
  readonly timings: CliTimings;
  readonly wallSeconds: number;
  /** GNU time's figure when available, else the CLI's own. */
  readonly peakRssBytes: number;
  readonly rssSource: 'time' | 'cli';
}

export interface PythonRow {
  readonly label: string;
  readonly fileBytes: number;
  readonly seconds: number;
  readonly peakRssBytes: number | null;
  /** Our decode speed on the same file, for the ratio. */
  readonly ourDecodeMBps: number | null;
  readonly ourWallSeconds: number | null;
}

const mb = (bytes: number): number => bytes / 1e6;
const mark = (ok: boolean): string => (ok ? 'ok' : 'MISSED');

export function decodeMBps(timings: CliTimings): number {
  return mb(timings.input_bytes) / Math.max(timings.read_decode_ms / 1000, 1e-9);
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatCliTable(rows: readonly CliRow[]): string {
  const body = rows.map((r) => {
    const gb = r.fileBytes / 1e9;
    const timeTarget = gb >= 1 ? TARGET_SECONDS_PER_GB * gb : null;
    const rssFactor = r.peakRssBytes / r.fileBytes;
    return [
      r.label,
      `${mb(r.fileBytes).toFixed(1)} MB`,
      String(r.traceEntries),
      `${decodeMBps(r.timings).toFixed(0)} MB/s`,
      `${(r.timings.read_decode_ms / 1000).toFixed(2)} s`,
      `${(r.timings.analysis_ms / 1000).toFixed(2)} s`,
      `${(r.timings.total_ms / 1000).toFixed(2)} s`,
      `${r.wallSeconds.toFixed(2)} s`,
      timeTarget === null
        ? '-'
        : `<= ${timeTarget.toFixed(1)} s ${mark(r.wallSeconds <= timeTarget)}`,
      `${mb(r.peakRssBytes).toFixed(0)} MB${r.rssSource === 'cli' ? '*' : ''}`,
      `${rssFactor.toFixed(2)}x`,
      `<= ${TARGET_RSS_FACTOR}x ${mark(rssFactor <= TARGET_RSS_FACTOR)}`,
    ];
  });
  const header = [
    'file',
    'size',
    'entries',
    'decode',
    'read+decode',
    'analysis',
    'CLI total',
    'wall',
    'wall target',
    'peak RSS',
    'x size',
    'RSS target',
  ];
  const note = rows.some((r) => r.rssSource === 'cli')
    ? '\n* peak RSS as reported by the CLI (no /usr/bin/time)'
    : '';
  return table(header, body) + note;
}

export function formatPythonTable(rows: readonly PythonRow[]): string {
  const body = rows.map((r) => {
    const pyMBps = mb(r.fileBytes) / r.seconds;
    const ratio = r.ourDecodeMBps === null ? null : r.ourDecodeMBps / pyMBps;
    return [
      r.label,
      `${r.seconds.toFixed(2)} s`,
      `${pyMBps.toFixed(0)} MB/s`,
      r.peakRssBytes === null ? '-' : `${mb(r.peakRssBytes).toFixed(0)} MB`,
      ratio === null ? '-' : `${ratio.toFixed(2)}x`,
      ratio === null ? '-' : `> 1x ${mark(ratio > 1)}`,
      r.ourWallSeconds === null ? '-' : `${(r.seconds / r.ourWallSeconds).toFixed(2)}x`,
    ];
  });
  const header = [
    'python3 pickle.load',
    'time',
    'speed',
    'peak RSS',
    'our decode / python',
    'speed target',
    'python time / our CLI wall',
  ];
  return table(header, body);
}
