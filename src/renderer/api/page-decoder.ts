import { adoptAnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import {
  decodedBytesOf,
  mayStartDecode,
  type DecodeResources,
} from '@shared/analyzed/decode-budget';
import { bugReportOf } from '@shared/snapshot/describe-decode-error';
import type { SnapshotOutcome } from '../../preload/index.d';
import type {
  DecodeWorkerReply,
  DecodeWorkerRequest,
  PagePartJob,
} from '../workers/decode-worker-protocol';
import DecodeWorker from '../workers/decode-worker?worker&inline';
import { DECODE_WORKER_NAME } from './prestarted-decoder';
import type { DecodeEvent, OpeningChoice } from './snapshot-client';
import { describeWorkerCrash } from './worker-crash';

// Decodes in the page's own Web Workers, one per file, in both builds: the worker reads a File or
// fetches a URL (Electron's hand-over, the web build's demo) and decodes it the same way. Inline
// (a blob: URL) because browsers refuse worker scripts loaded from file:// pages, and the web
// build must work from disk. A spare worker is kept started ahead (keepSpareWorker): a file then
// goes to a worker that has already loaded and run its script, instead of waiting 60-130 ms; the
// page `allocscope serve` serves hands in one started before its bundle ran (options.prestarted).
// Files opened together (a folder of ranks) decode side by side only as far as the cores and the
// memory allow (mayStartDecode); the rest wait their turn, in order, shown as waiting.

/**
 * What a worker is given: a File, or a URL it fetches and reads as the body arrives (with the
 * file's size when the host knows it, so the decoder can budget its memory before the fetch).
 */
export type PageDecodeSource =
  | Extract<DecodeWorkerRequest, { kind: 'file' }>
  | (Omit<Extract<DecodeWorkerRequest, { kind: 'url' }>, 'ranges'> & {
      readonly sizeBytes?: number | null;
      /** The server answers byte ranges of it (`allocscope serve`): it may decode in parts. */
      readonly seekable?: boolean;
    });

export type { SnapshotOutcome };

export interface PageDecodeOptions {
  /**
   * Told once how the decode ended (before its `done` or `failed` event goes out): Electron tells
   * main, which drops the file's token and adds a decoded file to Open Recent.
   */
  onSettled?(outcome: SnapshotOutcome): void;
  /** The folder of ranks the file came in (its `started` event says so). */
  rankGroup?: string | null;
  /** Where `allocscope serve` serves the file from ("gpu-box:/runs/a.pickle"). */
  servedFrom?: string | null;
  /** What its page shows first (its `done` event carries it to the tab's store). */
  opening?: OpeningChoice | null;
}

export interface PageDecoder {
  decode(source: PageDecodeSource, options?: PageDecodeOptions): void;
  /** True when the job was this decoder's (and is now stopped: its worker and its fetch). */
  cancel(jobId: string): boolean;
  /**
   * Starts a worker now and keeps one ready from then on (started again once the page is idle
   * after each decode), so that opening a file does not wait for a worker to load its script.
   */
  keepSpareWorker(): void;
}

export interface PageDecoderOptions {
  /** Runs the start of the next spare worker later, when the page is idle. */
  whenIdle?: (run: () => void) => void;
  /** The cores and memory decodes may use at once (read at each start). */
  resources?: () => DecodeResources;
  /**
   * A worker started before the page's bundle ran (the served page's, ./prestarted-decoder.ts):
   * the first spare, so the first file does not wait for a worker to load its script.
   */
  prestarted?: Worker | null;
  /**
   * The threads a picked or served file decodes on when it decodes alone (?jobs=N, the page's
   * counterpart of the CLI's --jobs); absent or null: one (see threadsOf).
   */
  decodeThreads?: number | null;
}

/** The memory the page's decodes may hold: half the device's, which Chromium reports up to 8 GiB. */
const DEFAULT_DEVICE_MEMORY_GIB = 4;

/** The browser's word on the machine: cores, and half its memory for decoding. */
export function browserDecodeResources(): DecodeResources {
  const nav = globalThis.navigator as (Navigator & { deviceMemory?: number }) | undefined;
  const memoryGiB = nav?.deviceMemory ?? DEFAULT_DEVICE_MEMORY_GIB;
  return {
    cores: Math.max(1, nav?.hardwareConcurrency ?? 2),
    memoryBytes: (memoryGiB / 2) * 2 ** 30,
  };
}

/** How long after a decode the next spare worker may wait for an idle moment. */
const SPARE_IDLE_TIMEOUT_MS = 2000;

function defaultWhenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback(run, { timeout: SPARE_IDLE_TIMEOUT_MS });
  } else {
    setTimeout(run, 200);
  }
}

interface Job {
  /** Null while the job waits for its turn. */
  worker: Worker | null;
  /** The workers of its later parts, for a file decoded in parts (ended with the job). */
  readonly partWorkers: Worker[];
  readonly source: PageDecodeSource;
  readonly fileName: string;
  readonly sizeBytes: number | null;
  /** What the decode works through (a .gz unpacked): what the memory budget counts. */
  readonly budgetBytes: number | null;
  readonly onSettled: ((outcome: SnapshotOutcome) => void) | undefined;
  readonly opening: OpeningChoice | null;
}

export function createPageDecoder(
  emit: (event: DecodeEvent) => void,
  startWorker: () => Worker = () => new DecodeWorker({ name: DECODE_WORKER_NAME }),
  options: PageDecoderOptions = {},
): PageDecoder {
  const whenIdle = options.whenIdle ?? defaultWhenIdle;
  const resources = options.resources ?? browserDecodeResources;
  /** Every job, running or waiting, in the order they came (a Map keeps it). */
  const jobs = new Map<string, Job>();
  let nextJob = 1;
  let keepSpare = false;
  /** A started worker waiting for its file (its script loads meanwhile). */
  let spare: Worker | null = null;
  let spareScheduled = false;

  /** Ends a job: its worker goes (and with it any fetch it runs); says how it ended. */
  function finish(jobId: string, outcome: SnapshotOutcome): boolean {
    const job = jobs.get(jobId);
    if (!job) return false;
    jobs.delete(jobId);
    job.worker?.terminate();
    for (const partWorker of job.partWorkers) partWorker.terminate();
    job.onSettled?.(outcome);
    startWaiting();
    scheduleSpare();
    return true;
  }

  function running(): Job[] {
    return [...jobs.values()].filter((job) => job.worker !== null);
  }

  /** Starts the waiting jobs, first come first, while the budget allows. */
  function startWaiting(): void {
    for (const [jobId, job] of jobs) {
      if (job.worker !== null) continue;
      const sizes = running().map((other) => other.budgetBytes);
      if (!mayStartDecode(sizes, job.budgetBytes, resources())) return;
      // Its tab said "waiting": now it reads.
      start(jobId, job, () =>
        emit({
          type: 'progress',
          jobId,
          stage: 'reading',
          bytesRead: 0,
          totalBytes: job.sizeBytes,
        }),
      );
    }
  }

  function startSpare(): void {
    if (!keepSpare || spare !== null) return;
    let worker: Worker;
    try {
      worker = startWorker();
    } catch {
      return; // the next decode starts its own, and reports why it cannot
    }
    keepAsSpare(worker);
  }

  function keepAsSpare(worker: Worker): void {
    // A spare that fails to load is dropped; the next decode starts a fresh one.
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      if (spare === worker) spare = null;
    };
    spare = worker;
  }

  if (options.prestarted != null) keepAsSpare(options.prestarted);

  /** The next spare starts once the page is idle and no decode is running (they share cores). */
  function scheduleSpare(): void {
    if (!keepSpare || spare !== null || spareScheduled) return;
    spareScheduled = true;
    whenIdle(() => {
      spareScheduled = false;
      if (jobs.size === 0) startSpare();
    });
  }

  function takeWorker(): Worker {
    const worker = spare;
    spare = null;
    return worker ?? startWorker();
  }

  /**
   * Hands the job's file to a worker, and the worker's replies to the page; `announce` tells the
   * page the decode runs (after the hand-over, so the worker reads while the page renders).
   */
  function start(jobId: string, job: Job, announce: () => void): void {
    const { fileName, source } = job;
    let worker: Worker;
    try {
      worker = takeWorker();
    } catch (error) {
      announce();
      jobs.delete(jobId);
      job.onSettled?.('failed');
      // The page's own worker script would not start: our bug (or our build's), not the file's.
      const message = `could not start the decoder: ${errorText(error)}`;
      emit({ type: 'failed', jobId, fileName, message, bugReport: bugReportOf(error) });
      startWaiting();
      return;
    }
    job.worker = worker;
    worker.onmessage = (event: MessageEvent<DecodeWorkerReply>) => {
      if (!jobs.has(jobId)) return;
      const reply = event.data;
      switch (reply.type) {
        case 'progress':
          emit({
            type: 'progress',
            jobId,
            stage: reply.stage,
            bytesRead: reply.bytesRead,
            totalBytes: reply.totalBytes,
            ...(reply.preview === undefined ? {} : { preview: reply.preview }),
          });
          return;
        case 'start-parts':
          startPartWorkers(job, worker, reply.jobs);
          return;
        case 'end-parts':
          for (const partWorker of job.partWorkers.splice(0)) partWorker.terminate();
          return;
        case 'done':
          finish(jobId, 'decoded');
          emit({
            type: 'done',
            jobId,
            snapshot: adoptAnalyzedSnapshot(reply.snapshot),
            ...((reply.threads ?? 1) > 1 ? { decodeThreads: reply.threads } : {}),
            ...(job.opening === null ? {} : { opening: job.opening }),
          });
          return;
        case 'failed':
          finish(jobId, 'failed');
          emit({
            type: 'failed',
            jobId,
            fileName,
            message: reply.message,
            ...(reply.bugReport === undefined ? {} : { bugReport: reply.bugReport }),
          });
          return;
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (!finish(jobId, 'failed')) return;
      emit({ type: 'failed', jobId, fileName, ...describeWorkerCrash(event) });
    };
    // Exactly the request's fields, whatever else the caller's object carries.
    const request: DecodeWorkerRequest =
      source.kind === 'file'
        ? {
            kind: 'file',
            file: source.file,
            ...(source.originalBytes === undefined ? {} : { originalBytes: source.originalBytes }),
            ...(source.memoryTimeline === undefined
              ? {}
              : { memoryTimeline: source.memoryTimeline }),
            ...threadsOf(job),
          }
        : {
            kind: 'url',
            url: source.url,
            fileName: source.fileName,
            ...rangesOf(job),
          };
    worker.postMessage(request);
    announce();
  }

  /**
   * The threads a picked (or served) file decodes on: several only when asked (?jobs=N) and when
   * it decodes alone (files side by side already share the cores). Not the decode budget's
   * choice, as in the CLI: reading a File costs the browser CPU, and 2 threads read 1.6 times
   * the file, so on 2 cores 2 threads took 11.1-11.5 s for the 1 GB file against 9.7-10.5 s on
   * one (docs/parallel-decode.md, "The page's reads"); not yet measured with cores to spare.
   */
  function threadsOf(job: Job): { threads?: number } {
    if (running().length > 1 || job.sizeBytes === null) return {};
    const threads = options.decodeThreads ?? 1;
    return threads > 1 ? { threads } : {};
  }

  /** A served file the server answers ranges of: its size and threads, to decode in parts. */
  function rangesOf(job: Job): { ranges?: { sizeBytes: number; threads: number } } {
    const { source, sizeBytes } = job;
    if (source.kind !== 'url' || source.seekable !== true || sizeBytes === null) return {};
    const { threads } = threadsOf(job);
    return threads === undefined ? {} : { ranges: { sizeBytes, threads } };
  }

  /**
   * A worker for each later part of the job's file, handed its part (its ports to the spine and
   * to the other parts' workers come with it). One that fails tells the spine, which then decodes
   * the file on one thread.
   */
  function startPartWorkers(job: Job, spine: Worker, partJobs: readonly PagePartJob[]): void {
    for (const partJob of partJobs) {
      let partWorker: Worker;
      try {
        partWorker = startWorker();
      } catch {
        spine.postMessage({ kind: 'part-lost' } satisfies DecodeWorkerRequest);
        return;
      }
      job.partWorkers.push(partWorker);
      partWorker.onerror = (event) => {
        event.preventDefault();
        spine.postMessage({ kind: 'part-lost' } satisfies DecodeWorkerRequest);
      };
      const request: DecodeWorkerRequest = { kind: 'part', job: partJob };
      partWorker.postMessage(request, [
        ...partJob.toLater,
        ...partJob.fromEarlier,
        partJob.toSpine,
      ]);
    }
  }

  return {
    decode(source, decodeOptions = {}) {
      const jobId = `page-${nextJob++}`;
      const fileName = source.kind === 'file' ? source.file.name : source.fileName;
      // A File's size is known now; a URL's when the host says (Electron), else it comes with
      // the response (Content-Length), in the worker's first progress report.
      const sizeBytes = source.kind === 'file' ? source.file.size : (source.sizeBytes ?? null);
      const job: Job = {
        worker: null,
        partWorkers: [],
        source,
        fileName,
        sizeBytes,
        // A page's own snapshot is gzip whatever its name: budgeted as the file it was made from.
        budgetBytes: decodedBytesOf(
          fileName,
          (source.kind === 'file' ? source.originalBytes : undefined) ?? sizeBytes,
        ),
        onSettled: decodeOptions.onSettled,
        opening: decodeOptions.opening ?? null,
      };
      const sizes = running().map((other) => other.budgetBytes);
      const waiting =
        running().length < jobs.size || !mayStartDecode(sizes, job.budgetBytes, resources());
      jobs.set(jobId, job);
      const rankGroup = decodeOptions.rankGroup ?? null;
      const { servedFrom } = decodeOptions;
      const announce = () =>
        emit({
          type: 'started',
          jobId,
          fileName,
          totalBytes: sizeBytes,
          waiting,
          rankGroup,
          ...(servedFrom == null ? {} : { servedFrom }),
        });
      if (waiting) announce();
      else start(jobId, job, announce);
    },
    cancel: (jobId) => finish(jobId, 'cancelled'),
    keepSpareWorker() {
      keepSpare = true;
      if (jobs.size === 0) startSpare();
    },
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
