// `npm run bench -- --jobs [--only 100MB]` (issue 25): `allocscope summary --jobs N` against
// `--jobs 1` on each generated snapshot, run for run alternating (medians of RUNS, the load
// beside them): wall time, the process's CPU, each decoding thread's CPU and peak RSS, and the
// same summary from both. On a shared machine the wall time says how much CPU the process got;
// the busiest thread's CPU says what idle cores would take: the projection uses it.

import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import type { BenchInput } from './bench-inputs';
import { parseTimings, type CliTimings } from './cli-output';
import { runMeasured } from './measure-command';

const RUNS = 3;
/** Python's pickle.load runs beside the inputs up to this size (it holds ~10 times the file). */
const PYTHON_MAX_BYTES = 200e6;
const PYTHON_LOAD = 'import pickle, sys\nwith open(sys.argv[1], "rb") as f: pickle.load(f)';

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
  /** Decode throughput (the file over read_decode_ms, medians), MB/s. */
  oneDecodeMBps: number;
  partsDecodeMBps: number;
  /** Python's pickle.load on the same file, run for run alternating (median); null: not run. */
  pythonWallSeconds: number | null;
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
  const python: number[] = [];
  const withPython =
    input.bytes <= PYTHON_MAX_BYTES && spawnSync('python3', ['--version']).status === 0;
  for (let run = 0; run < RUNS; run++) {
    log(`summary ${input.size.label} --jobs 1 / --jobs ${jobs}, run ${run + 1} of ${RUNS} ...`);
    one.push(summary(cli, root, input.path, 1));
    parts.push(summary(cli, root, input.path, jobs));
    if (withPython) {
      const loaded = runMeasured('python3', ['-c', PYTHON_LOAD, input.path], root);
      if (loaded.status !== 0) throw new Error(`pickle.load failed: ${loaded.stderr.trim()}`);
      python.push(loaded.wallSeconds);
    }
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
    oneDecodeMBps: decodeMBps(input.bytes, one),
    partsDecodeMBps: decodeMBps(input.bytes, parts),
    pythonWallSeconds: python.length > 0 ? median(python) : null,
    load: `${loadBefore}-${loadavg()[0]!.toFixed(1)}`,
  };
}

function decodeMBps(fileBytes: number, runs: readonly Run[]): number {
  return fileBytes / 1e6 / (median(runs.map((run) => run.timings.read_decode_ms)) / 1000);
}

export function formatJobsTable(rows: readonly JobsBenchRow[]): string {
  const s = (seconds: number): string => `${seconds.toFixed(2)} s`;
  const mb = (bytes: number | null): string =>
    bytes === null ? 'n/a' : `${(bytes / 1e6).toFixed(0)} MB`;
  const lines = [
    '| input | threads | wall 1 / N (ratio) | decode MB/s 1 / N | process CPU 1 / N | decode CPU: one thread / busiest of N (spine) | on idle cores | peak RSS 1 / N | load |',
    '| ----- | ------- | ------------------ | ----------------- | ----------------- | --------------------------------------------- | ------------- | -------------- | ---- |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.label} | ${row.threads} of ${row.jobs} | ${s(row.oneWallSeconds)} / ${s(row.partsWallSeconds)} (${(row.oneWallSeconds / row.partsWallSeconds).toFixed(2)}x) | ${row.oneDecodeMBps.toFixed(0)} / ${row.partsDecodeMBps.toFixed(0)} | ${s(row.oneCpuSeconds)} / ${s(row.partsCpuSeconds)} | ${s(row.oneDecodeCpuSeconds)} / ${s(row.busiestThreadCpuSeconds)} (${s(row.spineCpuSeconds)}) | ${(row.oneDecodeCpuSeconds / row.busiestThreadCpuSeconds).toFixed(2)}x | ${mb(row.oneRssBytes)} / ${mb(row.partsRssBytes)} | ${row.load} |`,
    );
  }
  lines.push(
    '',
    "On idle cores: the one thread's decode CPU over the busiest thread's, the decode's speed-up where no thread waits for a core.",
  );
  for (const row of rows) {
    if (row.pythonWallSeconds === null) continue;
    const python = row.pythonWallSeconds;
    lines.push(
      `Python's pickle.load on ${row.label}, run for run alternating: ${s(python)} (median); ` +
        `summary --jobs 1 is ${(python / row.oneWallSeconds).toFixed(2)}x faster, --jobs ${row.jobs} ${(python / row.partsWallSeconds).toFixed(2)}x.`,
    );
  }
  return lines.join('\n');
}
