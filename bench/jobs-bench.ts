// `npm run bench -- --jobs [--only 100MB]` (issue 25): `allocscope summary --jobs N` against
// `--jobs 1` on each generated snapshot, run for run alternating (medians of RUNS, the load
// beside them): wall time, the process's CPU, each decoding thread's CPU and peak RSS, and the
// same summary from both. On a shared machine the wall time says how much CPU the process got;
// the busiest thread's CPU says what idle cores would take: the projection uses it.

import { loadavg } from 'node:os';
import type { BenchInput } from './bench-inputs';
import { parseTimings, type CliTimings } from './cli-output';
import { runMeasured } from './measure-command';

const RUNS = 3;

export interface JobsBenchRow {
  label: string;
  fileBytes: number;
  jobs: number;
  /** Medians. */
  oneWallSeconds: number;
  partsWallSeconds: number;
  oneCpuSeconds: number;
  partsCpuSeconds: number;
  /** The one thread's decode CPU (--jobs 1). */
  oneDecodeCpuSeconds: number;
  /** The busiest decoding thread's CPU with --jobs N, and the spine's. */
  busiestThreadCpuSeconds: number;
  spineCpuSeconds: number;
  oneRssBytes: number | null;
  partsRssBytes: number | null;
  threads: number;
  load: string;
}

interface Run {
  wallSeconds: number;
  rssBytes: number | null;
  timings: CliTimings;
  stdout: string;
}

function summary(cli: string, root: string, path: string, jobs: number): Run {
  const run = runMeasured(
    process.execPath,
    [cli, 'summary', path, '--json', '--timings', '--jobs', String(jobs)],
    root,
  );
  if (run.status !== 0) throw new Error(`summary --jobs ${jobs} failed: ${run.stderr.trim()}`);
  const timings = parseTimings(run.stderr);
  return { wallSeconds: run.wallSeconds, rssBytes: run.maxRssBytes, timings, stdout: run.stdout };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function runJobsBench(
  root: string,
  cli: string,
  input: BenchInput,
  jobs: number,
  log: (line: string) => void,
): JobsBenchRow {
  const loadBefore = loadavg()[0]!.toFixed(1);
  const one: Run[] = [];
  const parts: Run[] = [];
  for (let run = 0; run < RUNS; run++) {
    log(`summary ${input.size.label} --jobs 1 / --jobs ${jobs}, run ${run + 1} of ${RUNS} ...`);
    one.push(summary(cli, root, input.path, 1));
    parts.push(summary(cli, root, input.path, jobs));
    if (parts.at(-1)!.stdout !== one.at(-1)!.stdout)
      throw new Error(`--jobs ${jobs} printed another summary than --jobs 1`);
  }
  const threadCpu = parts.map((run) => run.timings.decode_thread_cpu_ms ?? []);
  const rss = (runs: Run[]): number | null =>
    runs.every((run) => run.rssBytes !== null) ? median(runs.map((run) => run.rssBytes!)) : null;
  return {
    label: input.size.label,
    fileBytes: input.bytes,
    jobs,
    oneWallSeconds: median(one.map((run) => run.wallSeconds)),
    partsWallSeconds: median(parts.map((run) => run.wallSeconds)),
    oneCpuSeconds: median(one.map((run) => (run.timings.cpu_ms ?? NaN) / 1000)),
    partsCpuSeconds: median(parts.map((run) => (run.timings.cpu_ms ?? NaN) / 1000)),
    oneDecodeCpuSeconds: median(
      one.map((run) => (run.timings.decode_thread_cpu_ms?.[0] ?? NaN) / 1000),
    ),
    busiestThreadCpuSeconds: median(threadCpu.map((cpu) => Math.max(0, ...cpu) / 1000)),
    spineCpuSeconds: median(threadCpu.map((cpu) => (cpu[0] ?? 0) / 1000)),
    oneRssBytes: rss(one),
    partsRssBytes: rss(parts),
    threads: Math.max(...parts.map((run) => run.timings.decode_threads ?? 1)),
    load: `${loadBefore}-${loadavg()[0]!.toFixed(1)}`,
  };
}

export function formatJobsTable(rows: readonly JobsBenchRow[]): string {
  const s = (seconds: number): string => `${seconds.toFixed(2)} s`;
  const mb = (bytes: number | null): string =>
    bytes === null ? 'n/a' : `${(bytes / 1e6).toFixed(0)} MB`;
  const lines = [
    '| input | threads | wall 1 / N (ratio) | process CPU 1 / N | decode CPU: one thread / busiest of N (spine) | on idle cores | peak RSS 1 / N | load |',
    '| ----- | ------- | ------------------ | ----------------- | --------------------------------------------- | ------------- | -------------- | ---- |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.label} | ${row.threads} of ${row.jobs} | ${s(row.oneWallSeconds)} / ${s(row.partsWallSeconds)} (${(row.oneWallSeconds / row.partsWallSeconds).toFixed(2)}x) | ${s(row.oneCpuSeconds)} / ${s(row.partsCpuSeconds)} | ${s(row.oneDecodeCpuSeconds)} / ${s(row.busiestThreadCpuSeconds)} (${s(row.spineCpuSeconds)}) | ${(row.oneDecodeCpuSeconds / row.busiestThreadCpuSeconds).toFixed(2)}x | ${mb(row.oneRssBytes)} / ${mb(row.partsRssBytes)} | ${row.load} |`,
    );
  }
  lines.push(
    '',
    "On idle cores: the one thread's decode CPU over the busiest thread's, the decode's speed-up where no thread waits for a core.",
  );
  return lines.join('\n');
}
