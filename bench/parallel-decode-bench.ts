// Issue 25: the decode of a snapshot on 1 worker against 2 workers, side by side in one process
// (medians of N runs, load and peak RSS beside them). Two workers: the spine decodes the first
// part with the serial decoder; the other scans the first part's memo (scanMemoObjects), then
// decodes the second part on its own (decodeTracePart). No merge yet (docs/parallel-decode.md):
// the figure is the decode phase only, with the rows of both parts checked against the serial
// count. Bytes are read before the clock starts, in each worker. A control run decodes the whole
// file twice at once: on a loaded machine it says how much CPU a second thread can get.
//   npx vite build --config bench/split-plan-bench.vite.config.ts
//   node out/split-bench/parallel-decode-bench.js FILE [RUNS] [FIRST_PART_SHARE]

import { readFileSync } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { ForeignMemo } from '../src/shared/pickle/foreign-memo';
import { memorySource } from '../src/shared/pickle/byte-source';
import { countMemoCheckpoints } from '../src/shared/pickle/opcode-scan';
import { Unpickler } from '../src/shared/pickle/unpickler';
import { decodeTracePart } from '../src/shared/snapshot/decode-trace-part';
import { StackInterner } from '../src/shared/snapshot/stack-interner';
import { TraceTableBuilder } from '../src/shared/snapshot/trace-table-builder';
import { planTraceSplit } from '../src/shared/snapshot/trace-split-plan';

const CHUNK = 1 << 20;

interface Job {
  path: string;
  role: 'serial' | 'spine' | 'part';
  split: number;
}

interface Done {
  rows: number;
  /** CPU seconds of the worker's own thread (utime + stime): its work, whatever the contention. */
  cpuSeconds: number;
  scanSeconds: number;
  decodeSeconds: number;
}

/** The serial decoder over bytes[0..end): rows of the trace table. */
function decodeSerial(bytes: Uint8Array, end: number): number {
  const stacks = new StackInterner();
  const traceTable = new TraceTableBuilder(stacks, end / 24);
  const unpickler = new Unpickler({
    interceptor: traceTable,
    flatDictConsumer: traceTable,
    totalBytes: bytes.length,
  });
  for (let at = 0; at < end; at += CHUNK) {
    unpickler.feed(bytes.subarray(at, Math.min(end, at + CHUNK)));
    if (unpickler.done) break;
  }
  return traceTable.rows;
}

/** CPU seconds the calling thread has used (Linux: /proc/thread-self/stat, in clock ticks of 10 ms). */
function threadCpuSeconds(): number {
  const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat; here, after the command, 12th and 13th.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function runJob(job: Job, bytes: Uint8Array): Done {
  const cpuBefore = threadCpuSeconds();
  const done = runTimedJob(job, bytes);
  return { ...done, cpuSeconds: threadCpuSeconds() - cpuBefore };
}

function runTimedJob(job: Job, bytes: Uint8Array): Omit<Done, 'cpuSeconds'> {
  const started = performance.now();
  if (job.role === 'serial') {
    const rows = decodeSerial(bytes, bytes.length);
    return { rows, scanSeconds: 0, decodeSeconds: (performance.now() - started) / 1000 };
  }
  if (job.role === 'spine') {
    const rows = decodeSerial(bytes, job.split);
    return { rows, scanSeconds: 0, decodeSeconds: (performance.now() - started) / 1000 };
  }
  const scanned = countMemoCheckpoints(memorySource(bytes), 0, job.split);
  const scanEnd = performance.now();
  const foreign = new ForeignMemo(bytes, [{ ...scanned, base: 0, from: 0 }]);
  const part = decodeTracePart(bytes, job.split, bytes.length, scanned.memoized, foreign);
  return {
    rows: part.tables?.rows ?? 0,
    scanSeconds: (scanEnd - started) / 1000,
    decodeSeconds: (performance.now() - scanEnd) / 1000,
  };
}

if (!isMainThread) {
  const job = workerData as Job;
  const bytes = new Uint8Array(readFileSync(job.path));
  parentPort!.postMessage('ready');
  parentPort!.once('message', () => parentPort!.postMessage(runJob(job, bytes)));
} else {
  await main();
}

function load(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Starts workers, waits until each holds its bytes, then times them all from one start. */
async function timeWorkers(jobs: Job[]): Promise<{ wall: number; done: Done[] }> {
  const workers = jobs.map((job) => new Worker(new URL(import.meta.url), { workerData: job }));
  await Promise.all(
    workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))),
  );
  const started = performance.now();
  const done = await Promise.all(
    workers.map(
      (worker) =>
        new Promise<Done>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.postMessage('go');
        }),
    ),
  );
  const wall = (performance.now() - started) / 1000;
  await Promise.all(workers.map((worker) => worker.terminate()));
  return { wall, done };
}

async function main(): Promise<void> {
  const [path, runsText = '3', shareText = '0.55'] = process.argv.slice(2);
  if (path === undefined) throw new Error('usage: parallel-decode-bench FILE [RUNS] [SHARE]');
  const bytes = new Uint8Array(readFileSync(path));
  const split = planTraceSplit(bytes, 2, { fractions: [Number(shareText)] });
  if (!('plan' in split) || split.plan.starts.length < 2) throw new Error('cannot split');
  const at = split.plan.starts[1]!;
  const mb = bytes.length / 1e6;
  console.log(
    `${path}: ${mb.toFixed(1)} MB, split at ${at} (${((at / bytes.length) * 100).toFixed(1)}%); load ${load()}`,
  );
  const serial: number[] = [];
  const parallel: number[] = [];
  const twoSerial: number[] = [];
  const projected: number[] = [];
  for (let run = 0; run < Number(runsText); run++) {
    const one = await timeWorkers([{ path, role: 'serial', split: at }]);
    const two = await timeWorkers([
      { path, role: 'spine', split: at },
      { path, role: 'part', split: at },
    ]);
    // The control: two whole serial decodes at once. On an idle machine of 2+ cores each takes
    // as long as one alone; the ratio says how much a second thread can get here now.
    const control = await timeWorkers([
      { path, role: 'serial', split: at },
      { path, role: 'serial', split: at },
    ]);
    serial.push(one.wall);
    parallel.push(two.wall);
    twoSerial.push(control.wall);
    // On 2 idle cores: the serial decode's CPU time against the busier worker's.
    projected.push(
      one.done[0]!.cpuSeconds / Math.max(two.done[0]!.cpuSeconds, two.done[1]!.cpuSeconds),
    );
    const [spine, part] = two.done;
    console.log(
      `run ${run + 1}: 1 worker ${one.wall.toFixed(2)} s (${one.done[0]!.rows} rows); 2 workers ${two.wall.toFixed(2)} s ` +
        `(spine ${spine!.decodeSeconds.toFixed(2)} s, ${spine!.rows} rows; part: scan ${part!.scanSeconds.toFixed(2)} s + ` +
        `decode ${part!.decodeSeconds.toFixed(2)} s, ${part!.rows} rows; rows ${spine!.rows + part!.rows === one.done[0]!.rows ? 'match' : 'DIFFER'}); ` +
        `control: two serial decodes at once ${control.wall.toFixed(2)} s; CPU s: serial ` +
        `${one.done[0]!.cpuSeconds.toFixed(2)}, spine ${spine!.cpuSeconds.toFixed(2)}, part ${part!.cpuSeconds.toFixed(2)}; load ${load()}`,
    );
  }
  const s = median(serial);
  const p = median(parallel);
  console.log(
    `median: 1 worker ${s.toFixed(2)} s (${(mb / s).toFixed(0)} MB/s), 2 workers ${p.toFixed(2)} s ` +
      `(${(mb / p).toFixed(0)} MB/s): ${(s / p).toFixed(2)}x without the merge; control: two serial ` +
      `decodes at once ${median(twoSerial).toFixed(2)} s (${(median(twoSerial) / s).toFixed(2)}x one alone); ` +
      `by CPU time (serial / busier worker) ${median(projected).toFixed(2)}x; load ${load()}; ` +
      `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (the process, workers included)`,
  );
}
