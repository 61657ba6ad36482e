// `npm run bench -- --traces [--only 1GB]`: a generated PyTorch profiler trace of each size
// (generators/profiler-trace/generate-large-trace.ts) against the generated snapshot of the same
// size, side by side in one run: `allocscope summary` on each (wall time and peak RSS, run for run
// alternating), then the web build's first paint of each picked from disk in Debian's Chromium
// (alternating too). The table gives medians, the ratio trace / snapshot and the host's load.

import { existsSync, readFileSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { chromiumArgs, chromiumExecutablePath } from '../test/e2e/chromium';
import { generateLargeTrace } from '../generators/profiler-trace/generate-large-trace';
import type { BenchInput } from './bench-inputs';
import type { BenchSize } from './bench-options';
import { runMeasured } from './measure-command';
import { measureInput, startServer } from './ui-bench';

/** Bumped when the generator's output changes, so that an old trace is made again. */
const TRACE_GENERATOR_VERSION = 1;
const SEED = 1;
const LEAK_BYTES_PER_STEP = 1 << 20;

export interface TraceBenchRow {
  label: string;
  traceBytes: number;
  snapshotBytes: number;
  memoryEvents: number;
  snapshotEntries: number;
  /** Medians over the runs. */
  traceCliSeconds: number;
  snapshotCliSeconds: number;
  traceCliRssBytes: number | null;
  snapshotCliRssBytes: number | null;
  tracePaintSeconds: number | null;
  snapshotPaintSeconds: number | null;
  runs: number;
  load: number;
}

export function ensureTraceInput(
  dataDir: string,
  size: BenchSize,
  log: (line: string) => void,
): BenchInput {
  const path = join(dataDir, `trace-${size.label}.pt.trace.json`);
  const sidecar = `${path}.sidecar.json`;
  const wanted = JSON.stringify({
    generator: TRACE_GENERATOR_VERSION,
    seed: SEED,
    target: size.bytes,
  });
  if (existsSync(path) && existsSync(sidecar) && readFileSync(sidecar, 'utf8').trim() === wanted)
    return { size, path, bytes: statSync(path).size, generatedSeconds: null };
  rmSync(sidecar, { force: true });
  log(`generating ${path} (${(size.bytes / 1e6).toFixed(0)} MB)...`);
  const result = generateLargeTrace(path, size.bytes, {
    seed: SEED,
    leakBytesPerStep: LEAK_BYTES_PER_STEP,
  });
  writeFileSync(sidecar, `${wanted}\n`);
  log(
    `  ${(result.bytes / 1e6).toFixed(1)} MB in ${result.seconds.toFixed(1)} s: ${result.steps} steps, ` +
      `${result.ops} ops, ${result.memoryEvents} [memory] events, ${result.pythonSpans} python_function spans`,
  );
  return { size, path, bytes: result.bytes, generatedSeconds: result.seconds };
}

interface CliRun {
  seconds: number;
  rssBytes: number | null;
  entries: number;
}

function runSummary(cli: string, path: string): CliRun {
  const run = runMeasured(process.execPath, [cli, 'summary', path, '--json']);
  if (run.status !== 0)
    throw new Error(`allocscope summary ${path} failed: ${run.stderr.trim().slice(-500)}`);
  const summary = JSON.parse(run.stdout) as { devices: { trace_entries: number }[] };
  return {
    seconds: run.wallSeconds,
    rssBytes: run.maxRssBytes,
    entries: summary.devices.reduce((sum, device) => sum + device.trace_entries, 0),
  };
}

export async function runTraceBench(
  root: string,
  cli: string,
  pairs: { trace: BenchInput; snapshot: BenchInput }[],
  runs: number,
  withPage: boolean,
  log: (line: string) => void,
): Promise<TraceBenchRow[]> {
  const rows: TraceBenchRow[] = [];
  for (const { trace, snapshot } of pairs) {
    const load = loadavg()[0]!;
    const traceRuns: CliRun[] = [];
    const snapshotRuns: CliRun[] = [];
    for (let run = 0; run < runs; run++) {
      log(
        `allocscope summary, trace then snapshot (${trace.size.label}), run ${run + 1}/${runs} ...`,
      );
      traceRuns.push(runSummary(cli, trace.path));
      snapshotRuns.push(runSummary(cli, snapshot.path));
    }
    const tracePaints: number[] = [];
    const snapshotPaints: number[] = [];
    if (withPage) {
      const server = await startServer(root);
      let browser: Browser | undefined;
      try {
        browser = await chromium.launch({
          executablePath: chromiumExecutablePath,
          args: chromiumArgs,
        });
        for (let run = 0; run < runs; run++) {
          for (const input of [trace, snapshot]) {
            log(`first paint of ${input.path} in the web build, run ${run + 1}/${runs} ...`);
            const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
            try {
              const measured = await measureInput(page, {
                label: input.size.label,
                path: input.path,
                bytes: input.bytes,
              });
              (input === trace ? tracePaints : snapshotPaints).push(measured.firstPaintSeconds);
            } finally {
              await page.close();
            }
          }
        }
      } finally {
        await browser?.close();
        server.kill();
      }
    }
    rows.push({
      label: trace.size.label,
      traceBytes: trace.bytes,
      snapshotBytes: snapshot.bytes,
      memoryEvents: traceRuns[0]!.entries,
      snapshotEntries: snapshotRuns[0]!.entries,
      traceCliSeconds: median(traceRuns.map((run) => run.seconds)),
      snapshotCliSeconds: median(snapshotRuns.map((run) => run.seconds)),
      traceCliRssBytes: medianOrNull(traceRuns.map((run) => run.rssBytes)),
      snapshotCliRssBytes: medianOrNull(snapshotRuns.map((run) => run.rssBytes)),
      tracePaintSeconds: tracePaints.length === 0 ? null : median(tracePaints),
      snapshotPaintSeconds: snapshotPaints.length === 0 ? null : median(snapshotPaints),
      runs,
      load,
    });
  }
  return rows;
}

export function formatTraceTable(rows: readonly TraceBenchRow[]): string {
  const mb = (bytes: number | null): string =>
    bytes === null ? '–' : `${(bytes / 1e6).toFixed(0)} MB`;
  const s = (seconds: number | null): string =>
    seconds === null ? '–' : `${seconds.toFixed(2)} s`;
  const ratio = (a: number | null, b: number | null): string =>
    a === null || b === null || b === 0 ? '–' : `${(a / b).toFixed(2)}x`;
  const lines = [
    'profiler trace against a snapshot of the same size (medians; ratio = trace / snapshot)',
    'size  | file: trace / snapshot | entries: trace / snapshot | summary: trace / snapshot (ratio) | peak RSS: trace / snapshot | first paint: trace / snapshot (ratio) | runs | load',
  ];
  for (const row of rows)
    lines.push(
      [
        row.label,
        `${mb(row.traceBytes)} / ${mb(row.snapshotBytes)}`,
        `${row.memoryEvents.toLocaleString('en-US')} / ${row.snapshotEntries.toLocaleString('en-US')}`,
        `${s(row.traceCliSeconds)} / ${s(row.snapshotCliSeconds)} (${ratio(row.traceCliSeconds, row.snapshotCliSeconds)})`,
        `${mb(row.traceCliRssBytes)} / ${mb(row.snapshotCliRssBytes)}`,
        `${s(row.tracePaintSeconds)} / ${s(row.snapshotPaintSeconds)} (${ratio(row.tracePaintSeconds, row.snapshotPaintSeconds)})`,
        String(row.runs),
        row.load.toFixed(1),
      ].join(' | '),
    );
  return lines.join('\n');
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function medianOrNull(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : median(known);
}
