// `npm run bench`: generates large synthetic snapshots (once, into bench/.data), runs
// `allocscope summary FILE --json --timings` on each as a child process, measures it from the
// outside too, compares with Python's pickle.load on the smallest input, and prints the figures
// beside their targets. Exit status 1 when a run failed (a missed target is only reported).

import { availableParallelism } from 'node:os';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ensureBenchInput, formatInputShapes, type BenchInput } from './bench-inputs';
import { formatHtmlPageTable, measureHtmlPage, type HtmlPageRow } from './html-page-bench';
import { parseBenchOptions, type BenchOptions } from './bench-options';
import { ensureTraceInput, formatTraceTable, runTraceBench } from './trace-bench';
import {
  decodeMBps,
  formatCliTable,
  formatPythonTable,
  type CliRow,
  type PythonRow,
} from './bench-report';
import { checkSummary, parseTimings } from './cli-output';
import { runMeasured } from './measure-command';
import { formatStateTable, measureAllocatorState, type StateBenchRow } from './state-bench';
import { formatHoldersTable, measureHolders, type HoldersBenchRow } from './holders-bench';
import {
  ensureRanksInputs,
  formatRanksTable,
  measureRanks,
  type RanksBenchRow,
} from './ranks-bench';
import { formatAppRanksTable, measureAppRanks, type AppRanksRow } from './app-ranks-bench';
import { formatJobsTable, runJobsBench, type JobsBenchRow } from './jobs-bench';
import {
  formatPageMemoryTable,
  formatPageThreadsTable,
  measurePageMemory,
  type PageMemoryRow,
} from './page-memory-bench';

/** Fresh pages per mode in the app's ranks benchmark. */
const APP_RANKS_RUNS = 3;
import { formatUiTable } from './ui-bench-report';
import { runUiBench, startServer, type UiBenchRow } from './ui-bench';

const PYTHON_LOAD = 'import pickle, sys\nwith open(sys.argv[1], "rb") as f: pickle.load(f)';

/** The repository root: the closest folder above this script with a package.json (the script
 *  runs from out/cli/ once built). */
function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

function runCli(root: string, cli: string, input: BenchInput): CliRow {
  log(`allocscope summary ${relative(root, input.path)} --json --timings ...`);
  const run = runMeasured(
    process.execPath,
    [cli, 'summary', input.path, '--json', '--timings'],
    root,
  );
  if (run.error !== undefined) throw new Error(`could not start the CLI: ${run.error.message}`);
  if (run.status !== 0) {
    const why = run.signal !== null ? `killed by ${run.signal}` : `exit status ${run.status}`;
    throw new Error(`CLI failed (${why}):\n${run.stderr.trim().split('\n').slice(-15).join('\n')}`);
  }
  const summary = checkSummary(run.stdout);
  const timings = parseTimings(run.stderr);
  if (timings.input_bytes !== input.bytes) {
    log(`  note: the CLI reports input_bytes ${timings.input_bytes}, the file has ${input.bytes}`);
  }
  return {
    label: input.size.label,
    fileBytes: input.bytes,
    traceEntries: summary.traceEntries,
    timings,
    wallSeconds: run.wallSeconds,
    peakRssBytes: run.maxRssBytes ?? timings.max_rss_bytes,
    rssSource: run.maxRssBytes !== null ? 'time' : 'cli',
  };
}

/** pickle.load holds several times the file: larger inputs are not loaded in Python. */
const PYTHON_MAX_BYTES = 1.5e9;

function runPython(input: BenchInput, ours: CliRow | undefined): PythonRow | null {
  if (input.bytes > PYTHON_MAX_BYTES) {
    log(
      `no Python comparison: pickle.load of ${input.size.label} would hold several times its size`,
    );
    return null;
  }
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    log('python3 not found: no Python comparison');
    return null;
  }
  log(`python3 pickle.load ${input.path} ...`);
  const run = runMeasured('python3', ['-c', PYTHON_LOAD, input.path]);
  if (run.status !== 0)
    throw new Error(`python3 failed to load ${input.path}:\n${run.stderr.trim()}`);
  return {
    label: input.size.label,
    fileBytes: input.bytes,
    seconds: run.wallSeconds,
    peakRssBytes: run.maxRssBytes,
    ourDecodeMBps: ours === undefined ? null : decodeMBps(ours.timings),
    ourWallSeconds: ours?.wallSeconds ?? null,
  };
}

async function main(options: BenchOptions): Promise<number> {
  const root = findRoot(import.meta.dirname);
  const dataDir = join(root, 'bench', '.data');
  const cli = join(root, 'out', 'cli', 'allocscope.js');
  const failures: string[] = [];
  const fail = (what: string, error: unknown): boolean => {
    const message = error instanceof Error ? error.message : String(error);
    failures.push(`${what}: ${message}`);
    log(`FAILED ${what}: ${message}`);
    return options.keepGoing;
  };

  const inputs: BenchInput[] = [];
  for (const size of options.sizes) {
    try {
      inputs.push(ensureBenchInput(dataDir, size, log));
    } catch (error) {
      if (!fail(`generating ${size.label}`, error)) break;
    }
  }

  // --page-memory: only the web build, each size picked: progress, first paint, browser memory.
  if (options.pageMemory && !options.generateOnly) {
    const rows: PageMemoryRow[] = [];
    const server = await startServer(root);
    try {
      // With --jobs=N: each input at 1 and N threads (?jobs=), alternating, --ui-runs rounds.
      const asked = options.jobs !== null && options.jobs.length > 0 ? options.jobs : [2];
      const threadCounts = options.jobs === null ? [null] : [1, ...asked];
      const rounds = options.jobs === null ? 1 : options.uiRuns;
      for (const input of inputs) {
        for (let round = 0; round < rounds; round++) {
          for (const threads of threadCounts) {
            const jobs = threads === null ? '' : ` at ?jobs=${threads}`;
            log(`the web build, ${input.size.label} picked${jobs} ...`);
            try {
              rows.push(await measurePageMemory(input, threads));
            } catch (error) {
              if (!fail(`the page on ${input.size.label}`, error)) break;
            }
          }
        }
      }
    } finally {
      server.kill();
    }
    if (rows.length > 0) log(`\n${formatPageMemoryTable(rows)}`);
    if (options.jobs !== null && rows.length > 0) log(`\n${formatPageThreadsTable(rows)}`);
    if (rows.length > 0) log(`\n${formatInputShapes(inputs)}`);
    return failures.length > 0 ? 1 : 0;
  }

  // --html: only the one-file page (allocscope html), each size written and opened from disk.
  if (options.html && !options.generateOnly) {
    const rows: HtmlPageRow[] = [];
    for (const input of inputs) {
      log(`allocscope html on ${input.size.label}: written, opened from file:// ...`);
      try {
        rows.push(
          await measureHtmlPage(
            cli,
            { label: input.size.label, path: input.path, bytes: input.bytes },
            dataDir,
          ),
        );
      } catch (error) {
        if (!fail(`allocscope html on ${input.size.label}`, error)) break;
      }
    }
    if (rows.length > 0) log(`\n${formatHtmlPageTable(rows)}\n\n${formatInputShapes(inputs)}`);
    return failures.length > 0 ? 1 : 0;
  }

  // --jobs: only summary --jobs N against --jobs 1 on each size.
  if (options.jobs !== null && !options.generateOnly) {
    const counts =
      options.jobs.length > 0
        ? options.jobs
        : [...new Set([2, Math.max(2, availableParallelism())])];
    const rows: JobsBenchRow[] = [];
    for (const input of inputs) {
      for (const jobs of counts) {
        try {
          rows.push(runJobsBench(root, cli, input, jobs, log));
        } catch (error) {
          if (!fail(`--jobs ${jobs} on ${input.size.label}`, error)) break;
        }
      }
    }
    if (rows.length > 0) log(`\n${formatJobsTable(rows)}\n\n${formatInputShapes(inputs)}`);
    return failures.length > 0 ? 1 : 0;
  }

  // --traces: only profiler traces, each size against the snapshot of that size.
  if (options.traces) {
    const pairs: { trace: BenchInput; snapshot: BenchInput }[] = [];
    for (const snapshot of inputs) {
      try {
        pairs.push({ trace: ensureTraceInput(dataDir, snapshot.size, log), snapshot });
      } catch (error) {
        if (!fail(`generating the ${snapshot.size.label} trace`, error)) break;
      }
    }
    if (options.generateOnly || pairs.length === 0) return failures.length > 0 ? 1 : 0;
    try {
      const rows = await runTraceBench(root, cli, pairs, options.uiRuns, !options.noUi, log);
      log(`\n${formatTraceTable(rows)}`);
    } catch (error) {
      fail('profiler traces', error);
    }
    return failures.length > 0 ? 1 : 0;
  }

  const cliRows: CliRow[] = [];
  const pythonRows: PythonRow[] = [];
  if (!options.generateOnly && (failures.length === 0 || options.keepGoing)) {
    if (!existsSync(cli)) {
      fail(
        'allocscope CLI',
        new Error(`${relative(root, cli)} not found; build it (npm run bench builds it first)`),
      );
    } else {
      for (const input of inputs) {
        try {
          cliRows.push(runCli(root, cli, input));
        } catch (error) {
          if (!fail(`summary of ${input.size.label}`, error)) break;
        }
      }
    }
    const smallest = [...inputs].sort((a, b) => a.bytes - b.bytes)[0];
    if (smallest !== undefined && (failures.length === 0 || options.keepGoing)) {
      try {
        const row = runPython(
          smallest,
          cliRows.find((r) => r.label === smallest.size.label),
        );
        if (row !== null) pythonRows.push(row);
      } catch (error) {
        fail(`python3 on ${smallest.size.label}`, error);
      }
    }
  }

  const stateRows: StateBenchRow[] = [];
  if (!options.generateOnly && (failures.length === 0 || options.keepGoing)) {
    for (const input of inputs) {
      log(`allocator state on ${input.size.label} ...`);
      try {
        stateRows.push(await measureAllocatorState(input.size.label, input.path));
      } catch (error) {
        if (!fail(`allocator state on ${input.size.label}`, error)) break;
      }
    }
  }

  const holdersRows: HoldersBenchRow[] = [];
  if (!options.generateOnly && (failures.length === 0 || options.keepGoing)) {
    for (const input of inputs) {
      log(`who holds it on ${input.size.label} ...`);
      try {
        holdersRows.push(await measureHolders(input.size.label, input.path));
      } catch (error) {
        if (!fail(`who holds it on ${input.size.label}`, error)) break;
      }
    }
  }

  // A job's ranks: 8 files of 100 MB read in parallel against one by one (with --ranks).
  let ranksRow: RanksBenchRow | null = null;
  let appRanksRow: AppRanksRow | { skipped: string } | null = null;
  if (options.ranks && !options.generateOnly && (failures.length === 0 || options.keepGoing)) {
    try {
      const folder = ensureRanksInputs(dataDir, log);
      log("a job's ranks: allocscope ranks against 8 x summary ...");
      ranksRow = measureRanks(root, folder);
      if (!options.noUi) {
        log("a job's ranks in the app: as a folder against one by one ...");
        appRanksRow = await measureAppRanks(root, folder, APP_RANKS_RUNS);
      }
    } catch (error) {
      fail('ranks', error);
    }
  }

  let uiRows: UiBenchRow[] = [];
  if (!options.generateOnly && !options.noUi && (failures.length === 0 || options.keepGoing)) {
    if (!existsSync(join(root, 'out', 'web', 'index.html'))) {
      fail('app benchmark', new Error('out/web not built (npm run bench builds it first)'));
    } else {
      log(
        'web app in Chromium: first paint (picked, and through allocscope serve), zoom/pan frame times ...',
      );
      try {
        uiRows = await runUiBench(
          root,
          inputs.map((input) => ({
            label: input.size.label,
            path: input.path,
            bytes: input.bytes,
          })),
          options.uiRuns,
        );
      } catch (error) {
        fail('app benchmark', error);
      }
    }
  }

  log('');
  if (cliRows.length > 0) log(formatCliTable(cliRows));
  if (pythonRows.length > 0) log(`\n${formatPythonTable(pythonRows)}`);
  if (stateRows.length > 0) log(`\n${formatStateTable(stateRows)}`);
  if (holdersRows.length > 0) log(`\n${formatHoldersTable(holdersRows)}`);
  if (ranksRow !== null) log(`\n${formatRanksTable(ranksRow)}`);
  if (appRanksRow !== null) log(`\n${formatAppRanksTable(appRanksRow)}`);
  if (uiRows.length > 0) log(`\n${formatUiTable(uiRows)}`);
  if (inputs.length > 0) log(`\n${formatInputShapes(inputs)}`);
  if (failures.length > 0) {
    log(`\n${failures.length} failure(s):`);
    for (const failure of failures) log(`  ${failure.split('\n')[0]}`);
    return 1;
  }
  return 0;
}

try {
  process.exitCode = await main(parseBenchOptions(process.argv.slice(2), process.env));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
