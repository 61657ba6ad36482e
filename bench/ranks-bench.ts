// A job's ranks (`allocscope ranks`): 8 generated ranks of RANK_BYTES each (one leaking: the
// outlier), read by the built command in parallel worker threads, against reading the same 8
// files one after the other with `summary` (what a user does without `ranks`): median wall times
// of several runs and the peak memory of each (GNU time's maximum resident set).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  generateLargeSnapshot,
  GENERATOR_VERSION,
} from '../generators/snapshot/generate-large-snapshot';

const RANKS = 8;
const RANK_BYTES = 100e6;
const OUTLIER = 5;
const RUNS = 3;

export interface RanksBenchRow {
  ranks: number;
  rankBytes: number;
  workers: number;
  /** `ranks DIR --json`: median wall seconds, peak RSS bytes. */
  ranksSeconds: number;
  ranksRssBytes: number;
  /** 8 × `summary FILE --json`, one after the other: median total seconds, the largest peak RSS. */
  sequentialSeconds: number;
  summaryRssBytes: number;
  outliers: number[];
}

/** The 8 rank files, generated once per generator version into dataDir/ranks-100MB. */
export function ensureRanksInputs(dataDir: string, log: (line: string) => void): string {
  const folder = join(dataDir, 'ranks-100MB');
  const sidecar = join(folder, 'generator.json');
  const wanted = JSON.stringify({ generator: GENERATOR_VERSION, ranks: RANKS, bytes: RANK_BYTES });
  if (existsSync(sidecar) && readFileSync(sidecar, 'utf8') === wanted) return folder;
  mkdirSync(folder, { recursive: true });
  for (let rank = 0; rank < RANKS; rank++) {
    log(`generating ${folder}/rank${rank}.pickle (100 MB)...`);
    generateLargeSnapshot(join(folder, `rank${rank}.pickle`), RANK_BYTES, {
      seed: 40 + rank,
      devices: 1,
      ...(rank === OUTLIER ? { leakBytesPerStep: 2 ** 30 } : {}),
    });
  }
  writeFileSync(sidecar, wanted);
  return folder;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

export function measureRanks(root: string, folder: string): RanksBenchRow {
  const files = Array.from({ length: RANKS }, (_, rank) => join(folder, `rank${rank}.pickle`));
  const ranksRuns: { seconds: number; rss: number }[] = [];
  let document: { workers: number; outliers: number[] } = { workers: 0, outliers: [] };
  for (let run = 0; run < RUNS; run++) {
    const result = withRss(root, ['ranks', folder, '--json']);
    document = JSON.parse(result.stdout) as typeof document;
    ranksRuns.push(result);
  }
  const sequentialRuns: number[] = [];
  let summaryRss = 0;
  for (let run = 0; run < RUNS; run++) {
    let total = 0;
    for (const file of files) {
      const result = withRss(root, ['summary', file, '--json']);
      total += result.seconds;
      summaryRss = Math.max(summaryRss, result.rss);
    }
    sequentialRuns.push(total);
  }
  return {
    ranks: RANKS,
    rankBytes: RANK_BYTES,
    workers: document.workers,
    ranksSeconds: median(ranksRuns.map((run) => run.seconds)),
    ranksRssBytes: Math.max(...ranksRuns.map((run) => run.rss)),
    sequentialSeconds: median(sequentialRuns),
    summaryRssBytes: summaryRss,
    outliers: document.outliers,
  };
}

/** One run of the built command under GNU time: wall seconds, peak RSS bytes, stdout. */
function withRss(
  root: string,
  args: readonly string[],
): { seconds: number; rss: number; stdout: string } {
  const cli = join(root, 'out', 'cli', 'allocscope.js');
  const rssFile = join(root, 'bench', '.data', 'ranks-time.txt');
  const started = performance.now();
  const stdout = execFileSync(
    '/usr/bin/time',
    ['-o', rssFile, '-f', '%M', process.execPath, cli, ...args],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 },
  );
  const seconds = (performance.now() - started) / 1000;
  const rss = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) * 1024;
  return { seconds, rss, stdout };
}

export function formatRanksTable(row: RanksBenchRow): string {
  const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;
  return [
    `a job's ranks: ${row.ranks} x ${mb(row.rankBytes)} (rank ${OUTLIER} leaks), built command, median of ${RUNS}`,
    'allocscope ranks DIR         8 x summary FILE, one by one   speed-up  peak RSS ranks / one summary  outliers',
    [
      `${row.ranksSeconds.toFixed(2)} s (${row.workers} workers)`.padEnd(28),
      `${row.sequentialSeconds.toFixed(2)} s`.padEnd(30),
      `${(row.sequentialSeconds / row.ranksSeconds).toFixed(2)}x`.padEnd(9),
      `${mb(row.ranksRssBytes)} / ${mb(row.summaryRssBytes)}`.padEnd(30),
      row.outliers.join(', ') || 'none',
    ].join(' '),
  ].join('\n');
}
