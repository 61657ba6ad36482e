import type { DecodeWorkerReply, DecodeWorkerRequest } from '../workers/decode-worker-protocol';
import DecodeWorker from '../workers/decode-worker?worker&inline';
import { bugReportOf } from '@shared/snapshot/describe-decode-error';
import type { DecodeEvent } from './snapshot-client';
import { describeWorkerCrash } from './worker-crash';

// Decodes in the page's own Web Workers, one per file. Inline (a blob: URL) because browsers
// refuse worker scripts loaded from file:// pages, and the web build must work from disk. The web
// build keeps a spare worker started ahead (keepSpareWorker): a file then goes to a worker that
// has already loaded and run its script, instead of waiting 60-130 ms for one.

export type PageDecodeSource =
  /** A File the user chose or dropped. */
  | { readonly kind: 'file'; readonly file: File }
  /** A file served beside the page (the demo snapshot): downloaded, then decoded as a File. */
  | { readonly kind: 'url'; readonly url: string; readonly fileName: string };

export interface PageDecoder {
  decode(source: PageDecodeSource): void;
  /** True when the job was this decoder's (and is now stopped). */
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

export function createPageDecoder(
  emit: (event: DecodeEvent) => void,
  startWorker: () => Worker = () => new DecodeWorker({ name: 'allocscope-decoder' }),
  options: PageDecoderOptions = {},
): PageDecoder {
  const whenIdle = options.whenIdle ?? defaultWhenIdle;
  /** Per job, how to stop it: abort the download, or end the worker. */
  const stops = new Map<string, () => void>();
  let nextJob = 1;
  let keepSpare = false;
  /** A started worker waiting for its file (its script loads meanwhile). */
  let spare: Worker | null = null;
  let spareScheduled = false;

  function finish(jobId: string): boolean {
    const stop = stops.get(jobId);
    if (!stop) return false;
    stops.delete(jobId);
    stop();
    scheduleSpare();
    return true;
  }

  function startSpare(): void {
    if (!keepSpare || spare !== null) return;
    let worker: Worker;
    try {
      worker = startWorker();
    } catch {
      return; // the next decode starts its own, and reports why it cannot
    }
    // A spare that fails to load is dropped; the next decode starts a fresh one.
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      if (spare === worker) spare = null;
    };
    spare = worker;
  }

  /** The next spare starts once the page is idle and no decode is running (they share cores). */
  function scheduleSpare(): void {
    if (!keepSpare || spare !== null || spareScheduled) return;
    spareScheduled = true;
    whenIdle(() => {
      spareScheduled = false;
      if (stops.size === 0) startSpare();
    });
  }

  function takeWorker(): Worker {
    const worker = spare;
    spare = null;
    return worker ?? startWorker();
  }

  /** `announce` emits 'started' once the worker has the file (it reads while the page renders). */
  function decodeFile(jobId: string, file: File, announce: () => void = () => {}): void {
    let worker: Worker;
    try {
      worker = takeWorker();
    } catch (error) {
      announce();
      stops.delete(jobId);
      // The page's own worker script would not start: our bug (or our build's), not the file's.
      const message = `could not start the decoder: ${errorText(error)}`;
      emit({ type: 'failed', jobId, fileName: file.name, message, bugReport: bugReportOf(error) });
      return;
    }
    stops.set(jobId, () => worker.terminate());
    worker.onmessage = (event: MessageEvent<DecodeWorkerReply>) => {
      if (!stops.has(jobId)) return;
      const reply = event.data;
      switch (reply.type) {
        case 'progress':
          emit({
            type: 'progress',
            jobId,
            stage: reply.stage,
            bytesRead: reply.bytesRead,
            totalBytes: reply.totalBytes,
          });
          return;
        case 'done':
          finish(jobId);
          emit({ type: 'done', jobId, view: reply.view });
          return;
        case 'failed':
          finish(jobId);
          emit({
            type: 'failed',
            jobId,
            fileName: file.name,
            message: reply.message,
            ...(reply.bugReport === undefined ? {} : { bugReport: reply.bugReport }),
          });
          return;
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (!finish(jobId)) return;
      emit({ type: 'failed', jobId, fileName: file.name, ...describeWorkerCrash(event) });
    };
    const request: DecodeWorkerRequest = { file };
    worker.postMessage(request);
    announce();
  }

  function download(jobId: string, url: string, fileName: string): void {
    const controller = new AbortController();
    stops.set(jobId, () => controller.abort());
    fetchFile(url, fileName, controller.signal).then(
      (file) => {
        if (stops.has(jobId)) decodeFile(jobId, file);
      },
      (error: unknown) => {
        if (!stops.delete(jobId)) return; // cancelled
        scheduleSpare();
        emit({ type: 'failed', jobId, fileName, message: errorText(error) });
      },
    );
  }

  return {
    decode(source) {
      const jobId = `page-${nextJob++}`;
      if (source.kind === 'file') {
        const { file } = source;
        decodeFile(jobId, file, () =>
          emit({ type: 'started', jobId, fileName: file.name, totalBytes: file.size }),
        );
      } else {
        emit({ type: 'started', jobId, fileName: source.fileName, totalBytes: null });
        download(jobId, source.url, source.fileName);
      }
    },
    cancel: finish,
    keepSpareWorker() {
      keepSpare = true;
      if (stops.size === 0) startSpare();
    },
  };
}

async function fetchFile(url: string, fileName: string, signal: AbortSignal): Promise<File> {
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Error(`could not download it (${errorText(error)})`);
  }
  if (!response.ok) {
    throw new Error(
      response.status === 404
        ? 'the file is not part of this build'
        : `the server answered ${response.status} ${response.statusText}`.trim(),
    );
  }
  const blob = await response.blob();
  return new File([blob], fileName, { type: 'application/octet-stream' });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
