// Command line and environment of the benchmark: which input sizes to run and how to behave on
// failure. Sizes read like "100MB" or "1GB" (decimal units, as file managers show them; KiB /
// MiB / GiB also work).

export interface BenchSize {
  /** As written: names the input file (bench/.data/snapshot-<label>.pickle). */
  readonly label: string;
  readonly bytes: number;
}

export interface BenchOptions {
  readonly sizes: readonly BenchSize[];
  /** Go on with the next input after a failure (the exit status still reports it). */
  readonly keepGoing: boolean;
  /** Only create the inputs. */
  readonly generateOnly: boolean;
  /** Skip the app benchmark in Chromium. */
  readonly noUi: boolean;
  /** Fresh pages per input in the app benchmark (medians are reported). */
  readonly uiRuns: number;
  /** Also time `allocscope ranks` on 8 generated 100 MB ranks against 8 x summary, and the app opening them as a folder against one by one (unless --no-ui). */
  readonly ranks: boolean;
  /** Only the one-file page of `allocscope html` on each size: written, opened from file://. */
  readonly html: boolean;
  /** Only profiler traces: a generated trace of each size against the snapshot of that size. */
  readonly traces: boolean;
  /** Only `summary --jobs N` against `--jobs 1` (N: the value, or 2 and this machine's cores). */
  readonly jobs: readonly number[] | null;
  /** Only the web build, each size picked: its progress, first paint and the browser's memory. */
  readonly pageMemory: boolean;
}

export const BENCH_USAGE = `usage: node out/cli/bench.js [--only SIZE[,SIZE...]] [--keep-going] [--generate-only] [--no-ui] [--ui-runs N] [--ranks] [--html] [--traces] [--jobs[=N,...]] [--page-memory]
  SIZE like 100MB or 1GB; ALLOCSCOPE_BENCH_SIZES=100MB,1GB sets the default list
  --jobs[=N,...]   only summary --jobs N against --jobs 1 (default N: 2 and the cores)
  --page-memory    only the web build, each size picked (with --jobs=N: at ?jobs=1 and N, --ui-runs rounds)`;

const DEFAULT_SIZES = '100MB,1GB';

const UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
};

export function parseSize(text: string): BenchSize {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = UNITS[(match?.[2] ?? '').toLowerCase() || 'b'];
  if (match === null || unit === undefined)
    throw new Error(`not a size: "${text}" (try 100MB or 1GB)`);
  const bytes = Math.round(Number(match[1]) * unit);
  if (!(bytes >= 1e5)) throw new Error(`size too small for a benchmark: "${text}"`);
  return { label: text.trim().replace(/\s+/g, ''), bytes };
}

function parseSizeList(text: string): BenchSize[] {
  return text
    .split(',')
    .filter((part) => part.trim() !== '')
    .map(parseSize);
}

export function parseBenchOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): BenchOptions {
  let sizes = parseSizeList(env['ALLOCSCOPE_BENCH_SIZES'] ?? DEFAULT_SIZES);
  let keepGoing = false;
  let generateOnly = false;
  let noUi = false;
  let uiRuns = 3;
  let ranks = false;
  let html = false;
  let traces = false;
  let jobs: number[] | null = null;
  let pageMemory = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--keep-going') keepGoing = true;
    else if (arg === '--no-ui') noUi = true;
    else if (arg === '--generate-only') generateOnly = true;
    else if (arg === '--ranks') ranks = true;
    else if (arg === '--html') html = true;
    else if (arg === '--traces') traces = true;
    else if (arg === '--page-memory') pageMemory = true;
    else if (arg === '--jobs') jobs = [];
    else if (arg.startsWith('--jobs=')) {
      jobs = arg
        .slice('--jobs='.length)
        .split(',')
        .map((value) => Number(value));
      if (jobs.some((value) => !Number.isInteger(value) || value < 2 || value > 64))
        throw new Error('--jobs=N,... needs whole numbers from 2 to 64');
    } else if (arg === '--ui-runs' || arg.startsWith('--ui-runs=')) {
      const value = arg === '--ui-runs' ? argv[++i] : arg.slice('--ui-runs='.length);
      const runs = Number(value);
      if (!Number.isInteger(runs) || runs < 1 || runs > 20)
        throw new Error('--ui-runs needs a whole number from 1 to 20');
      uiRuns = runs;
    } else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      if (value === undefined) throw new Error('--only needs a size, e.g. --only 100MB');
      sizes = parseSizeList(value);
    } else {
      throw new Error(`unknown argument "${arg}"\n${BENCH_USAGE}`);
    }
  }
  if (sizes.length === 0) throw new Error('no sizes to run');
  return { sizes, keepGoing, generateOnly, noUi, uiRuns, ranks, html, traces, jobs, pageMemory };
}
