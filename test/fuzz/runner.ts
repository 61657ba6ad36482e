// The long fuzz campaign: `npm run fuzz -- --cases 100000 [--seed N] [--jobs J]`.
//
// Cases run in worker processes (batches, each a fresh process with a capped heap), so a crash,
// an out-of-memory abort or a hang in one case is caught: the parent sees the worker die (or go
// silent past --case-timeout), names the case that was in flight, re-runs it alone to confirm,
// and carries on with the next one. Each new kind of defect is minimized in the worker and saved
// under test/fuzz/findings/. At the end: cases per class, the defects, total time, the slowest
// case and the largest RSS. Exit status 1 when a defect was found.
//
// Also: `--replay FILE...` runs files through the oracle and prints what it says, and
// `--case N --seed S` re-runs one generated case (saving its input).

import { fork, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CORPUS_OF_PROFILE, loadSeeds, type FuzzProfileName } from './corpus';
import { saveFinding } from './findings';
import { minimize } from './minimize';
import {
  LONG_PROFILE,
  makeCase,
  MUTATOR_NAMES,
  QUICK_PROFILE,
  type FuzzCase,
  type MutatorName,
  type Seed,
} from './mutators';
import {
  defectSignature,
  runCase,
  runCaseConfirmed,
  type CaseOutcome,
  type Defect,
} from './oracle';

const MiB = 1 << 20;

interface RunnerOptions {
  /** The script workers run (a private copy of this bundle; see campaignMain). */
  workerScript: string;
  cases: number;
  /** The first case's index: a campaign can be run in ranges (--first 0 --cases 50000, then 50000). */
  first: number;
  seed: number;
  jobs: number;
  batch: number;
  caseTimeoutMs: number;
  heapMb: number;
  profile: FuzzProfileName;
  mutators: MutatorName[];
  minimize: boolean;
  replay: string[];
  single: number | null;
  /** Where the campaign's result goes as JSON (npm test reads it), or null. */
  json: string | null;
}

const USAGE = `npm run fuzz -- [--cases N] [--first N] [--seed N] [--jobs J] [--mutators a,b]
                    [--profile long|quick|parts] [--batch N] [--case-timeout MS] [--heap MB]
                    [--no-minimize] [--json FILE]
npm run fuzz -- --replay FILE...     run files through the oracle
npm run fuzz -- --seed S --case N    re-run one case and save its input

mutators: ${MUTATOR_NAMES.join(', ')}`;

function parseOptions(argv: readonly string[]): RunnerOptions {
  const options: RunnerOptions = {
    workerScript: process.argv[1]!,
    cases: 10_000,
    first: 0,
    seed: 1,
    jobs: 1,
    batch: 200,
    caseTimeoutMs: 60_000,
    heapMb: 2048,
    profile: 'long',
    mutators: [...MUTATOR_NAMES],
    minimize: true,
    replay: [],
    single: null,
    json: null,
  };
  const number = (value: string | undefined, flag: string): number => {
    const parsed = Number(value);
    if (value === undefined || !Number.isSafeInteger(parsed) || parsed < 0)
      throw new Error(`${flag} needs a whole number`);
    return parsed;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    switch (arg) {
      case '--cases':
        options.cases = number(argv[++i], arg);
        break;
      case '--first':
        options.first = number(argv[++i], arg);
        break;
      case '--seed':
        options.seed = number(argv[++i], arg);
        break;
      case '--json': {
        const file = argv[++i];
        if (file === undefined || file.startsWith('--')) throw new Error('--json needs a file');
        options.json = file;
        break;
      }
      case '--jobs':
        options.jobs = Math.max(1, number(argv[++i], arg));
        break;
      case '--batch':
        options.batch = Math.max(1, number(argv[++i], arg));
        break;
      case '--case-timeout':
        options.caseTimeoutMs = number(argv[++i], arg);
        break;
      case '--heap':
        options.heapMb = number(argv[++i], arg);
        break;
      case '--profile': {
        const value = argv[++i];
        if (value !== 'long' && value !== 'quick' && value !== 'parts')
          throw new Error('--profile is long, quick or parts');
        options.profile = value;
        break;
      }
      case '--mutators': {
        const names = (argv[++i] ?? '').split(',').filter((name) => name !== '');
        for (const name of names) {
          if (!MUTATOR_NAMES.includes(name as MutatorName)) throw new Error(`no mutator ${name}`);
        }
        options.mutators = names as MutatorName[];
        break;
      }
      case '--no-minimize':
        options.minimize = false;
        break;
      case '--case':
        options.single = number(argv[++i], arg);
        break;
      case '--replay':
        while (i + 1 < argv.length && !argv[i + 1]!.startsWith('--'))
          options.replay.push(argv[++i]!);
        break;
      case '--help':
      case '-h':
        throw new Error(USAGE);
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  return options;
}

function seedsFor(profile: RunnerOptions['profile']): Seed[] {
  return loadSeeds(CORPUS_OF_PROFILE[profile]);
}

/** The sizes a profile mutates with: the parts profile is the long one on the parts seeds. */
function profileOf(profile: RunnerOptions['profile']) {
  return profile === 'quick' ? QUICK_PROFILE : LONG_PROFILE;
}

// ---- messages between the parent and its workers ----

interface BatchRequest {
  type: 'batch';
  seed: number;
  indexes: number[];
  profile: RunnerOptions['profile'];
  mutators: MutatorName[];
  minimize: boolean;
  /** Defect signatures already saved: not minimized again. */
  known: string[];
}

interface CaseReport {
  type: 'case';
  index: number;
  mutator: MutatorName;
  seed: string;
  note: string;
  outcome: CaseOutcome;
  /** Per defect: the saved repro file (first occurrence in this worker only). */
  saved: (string | null)[];
}

type WorkerMessage =
  | { type: 'started'; index: number }
  /** Minimizing a defect: one more oracle run starts (the case timeout counts per run). */
  | { type: 'alive' }
  | CaseReport
  | { type: 'batch-done' };

/**
 * Checks that isolation works: FUZZ_SELFTEST_CRASH=N aborts the worker at case N (as a V8 heap
 * exhaustion would), FUZZ_SELFTEST_HANG=N spins forever there.
 */
function selfTest(index: number): void {
  if (process.env.FUZZ_SELFTEST_CRASH === String(index)) process.abort();
  if (process.env.FUZZ_SELFTEST_HANG === String(index)) for (;;);
}

/** Worker side: runs batches sent by the parent, reporting each case as it starts and ends. */
async function workerMain(): Promise<void> {
  const send = (message: WorkerMessage): Promise<void> =>
    new Promise((resolve) => process.send!(message, () => resolve()));
  let seeds: Seed[] | null = null;
  let seedsProfile: string | null = null;
  const minimized = new Set<string>();
  // The parent went away (killed, crashed): stop too.
  process.on('disconnect', () => process.exit(0));
  process.on('message', (request: BatchRequest | { type: 'exit' }) => {
    if (request.type === 'exit') process.exit(0);
    void (async () => {
      if (seeds === null || seedsProfile !== request.profile) {
        seeds = seedsFor(request.profile);
        seedsProfile = request.profile;
      }
      for (const known of request.known) minimized.add(known);
      for (const index of request.indexes) {
        await send({ type: 'started', index });
        selfTest(index);
        const fuzzCase = makeCase(
          request.seed,
          index,
          seeds,
          profileOf(request.profile),
          request.mutators,
        );
        const expect = { codeLoadingRefused: fuzzCase.expectCodeLoadingRefused === true };
        const outcome = await runCaseConfirmed(fuzzCase.bytes, expect);
        const saved: (string | null)[] = [];
        for (const defect of outcome.defects) {
          const signature = defectSignature(defect);
          if (minimized.has(signature)) {
            saved.push(null);
            continue;
          }
          minimized.add(signature);
          const bytes = request.minimize
            ? await minimizeFor(fuzzCase, defect, expect, () => send({ type: 'alive' }))
            : fuzzCase.bytes;
          saved.push(
            saveFinding({
              defect,
              fuzzCase,
              runSeed: request.seed,
              bytes,
              profile: request.profile,
              ...(bytes.length === fuzzCase.bytes.length
                ? {}
                : { originalBytes: fuzzCase.bytes.length }),
            }),
          );
        }
        // Details (stacks) travel once, with the first report of a defect.
        const slim = {
          ...outcome,
          defects: outcome.defects.map((defect, i) =>
            saved[i] === null ? { ...defect, detail: '' } : defect,
          ),
        };
        await send({
          type: 'case',
          index,
          mutator: fuzzCase.mutator,
          seed: fuzzCase.seed,
          note: fuzzCase.note,
          outcome: slim,
          saved,
        });
      }
      await send({ type: 'batch-done' });
    })();
  });
}

/** Defects worth minimizing: the deterministic ones (time, memory and crashes are not shrunk). */
const MINIMIZABLE = new Set<Defect['check']>([
  'internal-error',
  'verdict-depends-on-chunking',
  'generic-path-differs',
  'stdin-differs',
  'schema',
  'negative-or-nan',
  'json',
  'code-loading-accepted',
  'svg',
  'control-characters',
  'wording',
]);

async function minimizeFor(
  fuzzCase: FuzzCase,
  defect: Defect,
  expect: { codeLoadingRefused: boolean },
  beforeRun: () => Promise<void> = async () => {},
): Promise<Uint8Array> {
  if (!MINIMIZABLE.has(defect.check) || fuzzCase.bytes.length > 4 * MiB) return fuzzCase.bytes;
  const signature = defectSignature(defect);
  return minimize(fuzzCase.bytes, async (candidate) => {
    // Minimizing takes up to 30 s of oracle runs: the parent's case timeout is per run, not
    // for all of them (else a slow defect's minimization reads as a hang).
    await beforeRun();
    const outcome = await runCase(candidate, expect);
    return outcome.defects.some(
      (found) =>
        found.check === defect.check &&
        (defect.check !== 'internal-error' || defectSignature(found) === signature),
    );
  });
}

// ---- parent ----

interface ClassTally {
  cases: number;
  opened: number;
  refused: number;
  defects: number;
  /** The oracle's time over the class's cases (a case lost to a crash or hang counts 0). */
  ms: number;
}

interface DefectTally {
  defect: Defect;
  count: number;
  first: { index: number; mutator: string; seed: string; note: string };
  mutators: Set<string>;
  file: string | null;
}

interface Campaign {
  options: RunnerOptions;
  perClass: Map<string, ClassTally>;
  defects: Map<string, DefectTally>;
  slowest: {
    ms: number;
    index: number;
    mutator: string;
    note: string;
    step: string;
    bytes: number;
  } | null;
  largestRss: number;
  largestGrowth: { bytes: number; index: number; mutator: string } | null;
  done: number;
}

function record(campaign: Campaign, report: CaseReport): void {
  const tally = campaign.perClass.get(report.mutator) ?? {
    cases: 0,
    opened: 0,
    refused: 0,
    defects: 0,
    ms: 0,
  };
  tally.cases++;
  const { outcome } = report;
  tally.ms += outcome.totalMs;
  if (outcome.verdict === 'opened') tally.opened++;
  else if (outcome.verdict === 'refused') tally.refused++;
  else tally.defects++;
  campaign.perClass.set(report.mutator, tally);
  campaign.done++;
  outcome.defects.forEach((defect, i) => {
    const signature = defectSignature(defect);
    const known = campaign.defects.get(signature);
    if (known === undefined) {
      campaign.defects.set(signature, {
        defect,
        count: 1,
        first: {
          index: report.index,
          mutator: report.mutator,
          seed: report.seed,
          note: report.note,
        },
        mutators: new Set([report.mutator]),
        file: report.saved[i] ?? null,
      });
      process.stdout.write(
        `\n  defect [${defect.check}] case ${report.index} (${report.mutator}): ${defect.message}\n` +
          (report.saved[i] ? `    -> ${report.saved[i]}\n` : ''),
      );
    } else {
      known.count++;
      known.mutators.add(report.mutator);
      if (known.file === null && report.saved[i]) known.file = report.saved[i]!;
      if (known.defect.detail === '' && defect.detail !== '') known.defect = defect;
    }
  });
  if (campaign.slowest === null || outcome.slowestMs > campaign.slowest.ms) {
    campaign.slowest = {
      ms: outcome.slowestMs,
      index: report.index,
      mutator: report.mutator,
      note: report.note,
      step: outcome.slowestStep,
      bytes: outcome.inputBytes,
    };
  }
  campaign.largestRss = Math.max(campaign.largestRss, outcome.maxRssBytes);
  if (campaign.largestGrowth === null || outcome.rssGrowthBytes > campaign.largestGrowth.bytes) {
    campaign.largestGrowth = {
      bytes: outcome.rssGrowthBytes,
      index: report.index,
      mutator: report.mutator,
    };
  }
}

interface WorkerRun {
  /** Reports of the cases that finished. */
  reports: CaseReport[];
  /** The case that was running when the worker died or went silent, if any. */
  lost: { index: number; reason: 'crash' | 'hang'; detail: string } | null;
}

/** CPU time (user + system, ms) of a process from /proc, or null where there is none. */
function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses: utime is the 14th
    // field of the line, stime the 15th, in clock ticks (100 a second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** Runs `indexes` in one fresh worker; stops at the first case that kills it or hangs. */
function runWorker(
  options: RunnerOptions,
  indexes: number[],
  known: Set<string>,
  onReport: (report: CaseReport) => void,
): Promise<WorkerRun> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = fork(options.workerScript, ['--worker'], {
      execArgv: [`--max-old-space-size=${options.heapMb}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const reports: CaseReport[] = [];
    let inFlight: number | null = null;
    let stderr = '';
    let settled = false;
    let lastHeard = Date.now();
    let cpuAtLastHeard = processCpuMs(child.pid);
    child.stderr!.on('data', (data: Buffer) => {
      stderr = (stderr + data.toString()).slice(-4000);
    });
    const finish = (lost: WorkerRun['lost']): void => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      resolve({ reports, lost });
    };
    // A case hangs when it has taken caseTimeoutMs of the worker's CPU time without an answer (a
    // loaded machine stretches the wall time: a 31 MB case in 7-byte chunks took 7.5 s of CPU and
    // 54 s at load 19), or ten times that of wall time where the CPU time cannot be read.
    const watchdog = setInterval(() => {
      if (inFlight === null) return;
      const cpu = processCpuMs(child.pid);
      const wall = Date.now() - lastHeard;
      const spent = cpu === null || cpuAtLastHeard === null ? wall / 10 : cpu - cpuAtLastHeard;
      if (spent > options.caseTimeoutMs || wall > options.caseTimeoutMs * 10) {
        const index = inFlight;
        child.kill('SIGKILL');
        finish({
          index,
          reason: 'hang',
          detail: `no answer within ${options.caseTimeoutMs} ms of CPU time (${Math.round(wall / 1000)} s wall)`,
        });
      }
    }, 250);
    child.on('message', (message: WorkerMessage) => {
      lastHeard = Date.now();
      cpuAtLastHeard = processCpuMs(child.pid);
      if (message.type === 'started') inFlight = message.index;
      else if (message.type === 'alive') return;
      else if (message.type === 'case') {
        inFlight = null;
        reports.push(message);
        for (const defect of message.outcome.defects) known.add(defectSignature(defect));
        onReport(message);
      } else {
        child.send({ type: 'exit' });
        finish(null);
      }
    });
    child.on('error', (error) => {
      // Could not start (or talk to) the worker: that is the runner's problem, not a case's.
      clearInterval(watchdog);
      if (!settled) {
        settled = true;
        reject(error);
      }
    });
    child.on('exit', (code, signal) => {
      if (inFlight !== null) {
        finish({
          index: inFlight,
          reason: 'crash',
          detail: `worker exited (${signal ?? `code ${code}`})\n${stderr.trim()}`,
        });
      } else {
        finish(null);
      }
    });
    const request: BatchRequest = {
      type: 'batch',
      seed: options.seed,
      indexes,
      profile: options.profile,
      mutators: options.mutators,
      minimize: options.minimize,
      known: [...known],
    };
    child.send(request);
  });
}

async function campaignMain(options: RunnerOptions): Promise<number> {
  const started = performance.now();
  const campaign: Campaign = {
    options,
    perClass: new Map(),
    defects: new Map(),
    slowest: null,
    largestRss: 0,
    largestGrowth: null,
    done: 0,
  };
  const seeds = seedsFor(options.profile);
  process.stdout.write(
    `allocscope fuzz: ${options.cases} cases${options.first > 0 ? ` from case ${options.first}` : ''}, seed ${options.seed}, ${options.jobs} job(s), profile ${options.profile}, ` +
      `${seeds.length} seeds (${seeds.filter((seed) => seed.name.startsWith('real:')).length} real)\n`,
  );
  const known = new Set<string>();
  const pending: number[][] = [];
  for (let start = 0; start < options.cases; start += options.batch) {
    pending.push(
      Array.from(
        { length: Math.min(options.batch, options.cases - start) },
        (_v, i) => options.first + start + i,
      ),
    );
  }
  let lastProgress = 0;
  const tty = process.stdout.isTTY === true;
  const progress = (): void => {
    const now = performance.now();
    if (now - lastProgress < (tty ? 1000 : 30_000) && campaign.done < options.cases) return;
    lastProgress = now;
    const seconds = (now - started) / 1000;
    const line = `  ${campaign.done}/${options.cases} cases, ${campaign.defects.size} distinct defect(s), ${Math.round(seconds)} s, ${(campaign.done / seconds).toFixed(0)} cases/s`;
    process.stdout.write(tty ? `\r${line}   ` : `${line}\n`);
  };
  const onReport = (report: CaseReport): void => {
    record(campaign, report);
    progress();
  };

  const lane = async (): Promise<void> => {
    for (let indexes = pending.shift(); indexes !== undefined; indexes = pending.shift()) {
      let rest = indexes;
      while (rest.length > 0) {
        const run = await runWorker(options, rest, known, onReport);
        if (run.lost === null) break;
        const lost = run.lost;
        // Confirm alone, in a fresh worker: a case that only fails after others is noted as such.
        const alone = await runWorker(options, [lost.index], known, onReport);
        const fuzzCase = makeCase(
          options.seed,
          lost.index,
          seeds,
          profileOf(options.profile),
          options.mutators,
        );
        const confirmed = alone.lost !== null;
        const defect: Defect = {
          check: lost.reason,
          message: `${lost.reason === 'crash' ? 'the worker process died' : 'the case did not finish'}${confirmed ? '' : ' (only after other cases in the same process)'}: ${(confirmed ? alone.lost!.detail : lost.detail).split('\n').find((line) => /error|abort|heap|exited|answer/i.test(line)) ?? lost.detail.split('\n')[0]}`,
          detail: confirmed ? alone.lost!.detail : lost.detail,
        };
        if (confirmed) {
          const file = saveFinding({
            defect,
            fuzzCase,
            runSeed: options.seed,
            bytes: fuzzCase.bytes,
            profile: options.profile,
          });
          record(campaign, {
            type: 'case',
            index: lost.index,
            mutator: fuzzCase.mutator,
            seed: fuzzCase.seed,
            note: fuzzCase.note,
            outcome: {
              verdict: 'defect',
              message: defect.message,
              defects: [defect],
              inputBytes: fuzzCase.bytes.length,
              totalMs: 0,
              steps: [],
              slowestMs: 0,
              slowestStep: '',
              rssGrowthBytes: 0,
              maxRssBytes: 0,
            },
            saved: [file],
          });
        } else {
          const file = saveFinding({
            defect,
            fuzzCase,
            runSeed: options.seed,
            bytes: fuzzCase.bytes,
            profile: options.profile,
          });
          const tally = campaign.defects.get(defectSignature(defect));
          if (tally === undefined) {
            campaign.defects.set(defectSignature(defect), {
              defect,
              count: 1,
              first: {
                index: lost.index,
                mutator: fuzzCase.mutator,
                seed: fuzzCase.seed,
                note: fuzzCase.note,
              },
              mutators: new Set([fuzzCase.mutator]),
              file,
            });
          } else tally.count++;
        }
        const at = rest.indexOf(lost.index);
        rest = rest.slice(at + 1);
      }
    }
  };
  // Workers run a private copy of this bundle: `npm run fuzz` rebuilds out/fuzz/ (emptying it),
  // and a campaign started before must not lose its workers' script to one started after.
  const runDir = join(dirname(dirname(options.workerScript)), `fuzz-run-${process.pid}`);
  mkdirSync(runDir, { recursive: true });
  const script = join(runDir, basename(options.workerScript));
  copyFileSync(options.workerScript, script);
  options.workerScript = script;
  process.once('SIGINT', () => {
    rmSync(runDir, { recursive: true, force: true });
    process.exit(130);
  });
  let failure: unknown = null;
  try {
    await Promise.all(Array.from({ length: options.jobs }, () => lane()));
  } catch (error) {
    failure = error;
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
  if (tty) process.stdout.write('\n');
  const seconds = (performance.now() - started) / 1000;
  printSummary(campaign, seconds);
  if (options.json !== null)
    writeFileSync(options.json, JSON.stringify(resultOf(campaign, seconds), null, 1));
  if (failure !== null) {
    process.stderr.write(
      `the campaign stopped early: ${failure instanceof Error ? failure.message : String(failure)}\n`,
    );
    return 2;
  }
  return campaign.defects.size > 0 ? 1 : 0;
}

/** The campaign as `--json` writes it: what the summary prints, for a program to read. */
function resultOf(campaign: Campaign, seconds: number) {
  const { options } = campaign;
  return {
    seed: options.seed,
    profile: options.profile,
    first: options.first,
    cases: campaign.done,
    seconds,
    perClass: Object.fromEntries(
      options.mutators.map((name) => [
        name,
        campaign.perClass.get(name) ?? { cases: 0, opened: 0, refused: 0, defects: 0, ms: 0 },
      ]),
    ),
    defects: [...campaign.defects.values()].map((tally) => ({
      check: tally.defect.check,
      message: tally.defect.message,
      count: tally.count,
      mutators: [...tally.mutators],
      first: tally.first,
      replay: `npm run fuzz -- --profile ${options.profile} --seed ${options.seed} --case ${tally.first.index}`,
      file: tally.file,
    })),
    slowest: campaign.slowest,
    largestRssBytes: campaign.largestRss,
    largestGrowth: campaign.largestGrowth,
  };
}

/** What `--json` writes. */
export type CampaignResult = ReturnType<typeof resultOf>;

function pad(text: string | number, width: number, right = false): string {
  const s = String(text);
  return right ? s.padStart(width) : s.padEnd(width);
}

function printSummary(campaign: Campaign, seconds: number): void {
  const out: string[] = [];
  out.push('');
  out.push(
    `${campaign.done} cases in ${seconds.toFixed(1)} s (${(campaign.done / seconds).toFixed(1)} cases/s), seed ${campaign.options.seed}`,
  );
  out.push('');
  out.push(
    `${pad('class (mutator)', 18)}${pad('cases', 8, true)}${pad('opened', 8, true)}${pad('refused', 9, true)}${pad('defects', 9, true)}${pad('ms/case', 9, true)}`,
  );
  for (const name of campaign.options.mutators) {
    const tally = campaign.perClass.get(name) ?? {
      cases: 0,
      opened: 0,
      refused: 0,
      defects: 0,
      ms: 0,
    };
    const mean = tally.cases === 0 ? 0 : Math.round(tally.ms / tally.cases);
    out.push(
      `${pad(name, 18)}${pad(tally.cases, 8, true)}${pad(tally.opened, 8, true)}${pad(tally.refused, 9, true)}${pad(tally.defects, 9, true)}${pad(mean, 9, true)}`,
    );
  }
  out.push('');
  if (campaign.defects.size === 0) {
    out.push('defects: none');
  } else {
    const byCheck = new Map<string, DefectTally[]>();
    for (const tally of campaign.defects.values()) {
      const list = byCheck.get(tally.defect.check) ?? [];
      list.push(tally);
      byCheck.set(tally.defect.check, list);
    }
    out.push(`defects: ${campaign.defects.size} distinct`);
    for (const [check, list] of byCheck) {
      out.push(`  ${check}:`);
      for (const tally of list) {
        out.push(`    - ${tally.defect.message}`);
        out.push(
          `      ${tally.count} case(s), mutators ${[...tally.mutators].join(', ')}; first: --seed ${campaign.options.seed} --case ${tally.first.index} (${tally.first.mutator}: ${tally.first.note}; seed ${tally.first.seed})`,
        );
        if (tally.file !== null) out.push(`      repro: ${tally.file}`);
        const stackHead = tally.defect.detail
          .split('\n')
          .filter((line) => line.trim().startsWith('at '))
          .slice(0, 3)
          .map((line) => line.trim());
        for (const line of stackHead) out.push(`        ${line}`);
      }
    }
  }
  out.push('');
  const slowest = campaign.slowest;
  if (slowest !== null) {
    out.push(
      `slowest case: ${Math.round(slowest.ms)} ms of CPU (${slowest.step}), case ${slowest.index} (${slowest.mutator}: ${slowest.note}), ${slowest.bytes} bytes`,
    );
  }
  out.push(
    `largest RSS: ${Math.round(campaign.largestRss / MiB)} MiB (peak of a worker process)` +
      (campaign.largestGrowth === null
        ? ''
        : `; largest growth in one step: ${Math.round(campaign.largestGrowth.bytes / MiB)} MiB (case ${campaign.largestGrowth.index}, ${campaign.largestGrowth.mutator})`),
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

async function replayMain(files: string[]): Promise<number> {
  let failures = 0;
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(file));
    const outcome = await runCase(bytes, { codeLoadingRefused: false });
    process.stdout.write(
      `${file}: ${outcome.verdict}${outcome.message === null ? '' : `: ${outcome.message}`} (${bytes.length} bytes, ${Math.round(outcome.totalMs)} ms)\n`,
    );
    const mib = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MiB`;
    for (const step of outcome.steps) {
      process.stdout.write(
        `  ${step.name}: ${Math.round(step.ms)} ms of CPU, ${Math.round(step.wallMs)} ms wall, peak RSS +${mib(step.rssGrowth)}\n`,
      );
    }
    process.stdout.write(`  peak RSS ${mib(outcome.maxRssBytes)}\n`);
    for (const defect of outcome.defects) {
      failures++;
      process.stdout.write(
        `  [${defect.check}] ${defect.message}\n${defect.detail === '' ? '' : `${defect.detail.replace(/^/gm, '    ')}\n`}`,
      );
    }
  }
  return failures > 0 ? 1 : 0;
}

async function singleMain(options: RunnerOptions, index: number): Promise<number> {
  const seeds = seedsFor(options.profile);
  const fuzzCase = makeCase(
    options.seed,
    index,
    seeds,
    profileOf(options.profile),
    options.mutators,
  );
  const expect = { codeLoadingRefused: fuzzCase.expectCodeLoadingRefused === true };
  const outcome = await runCase(fuzzCase.bytes, expect);
  process.stdout.write(
    `case ${index} (seed ${options.seed}): ${fuzzCase.mutator}: ${fuzzCase.note} (seed file ${fuzzCase.seed}, ${fuzzCase.bytes.length} bytes)\n` +
      `  ${outcome.verdict}${outcome.message === null ? '' : `: ${outcome.message}`} (${Math.round(outcome.totalMs)} ms)\n`,
  );
  for (const defect of outcome.defects) {
    const bytes = options.minimize ? await minimizeFor(fuzzCase, defect, expect) : fuzzCase.bytes;
    const file = saveFinding({
      defect,
      fuzzCase,
      runSeed: options.seed,
      bytes,
      profile: options.profile,
      ...(bytes.length === fuzzCase.bytes.length ? {} : { originalBytes: fuzzCase.bytes.length }),
    });
    process.stdout.write(
      `  [${defect.check}] ${defect.message}\n    -> ${file}\n${defect.detail.replace(/^/gm, '    ')}\n`,
    );
  }
  return outcome.defects.length > 0 ? 1 : 0;
}

export async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === '--worker') {
    await workerMain();
    return 0;
  }
  let options: RunnerOptions;
  try {
    options = parseOptions(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  if (options.replay.length > 0) return replayMain(options.replay);
  if (options.single !== null) return singleMain(options, options.single);
  return campaignMain(options);
}
