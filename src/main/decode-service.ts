import { basename } from 'node:path';
import type { WebContents } from 'electron';
import { IpcChannel } from '../preload/ipc-channels';
import {
  bugFailure,
  crashFailure,
  decodeFailedPayload,
  failureOfError,
  type DecodeFailure,
} from './decode-failure';
import type { DecodeWorkerMessage } from './decode-worker-protocol';
import { decodeProgressSchema, decodeStartedSchema } from './ipc-schemas';

// Decodes files opened by path (dialog, Open Recent, drop, command line, demo) in worker
// threads and sends progress and views to the page. Paths named before the page listens (the
// command line) wait for its ready signal; a reload ends the decodes the old page was waiting on.

export interface DecodeWorkerEvents {
  message(message: DecodeWorkerMessage): void;
  /** The worker died without a result (crash, out of memory, exit). */
  crashed(error: Error): void;
}

export interface DecodeWorkerHandle {
  terminate(): void;
}

export interface DecodeServiceDependencies {
  startWorker(path: string, events: DecodeWorkerEvents): DecodeWorkerHandle;
  /** Size of the file in bytes; rejects when it cannot be read. */
  fileSize(path: string): Promise<number>;
  /** Called once per file that decoded (the recent-files list listens). */
  onDecoded?(path: string): void;
}

export interface DecodeService {
  /** The page that receives decodes; waits for its next rendererReady. */
  attach(contents: WebContents): void;
  markRendererReady(contents: WebContents): void;
  /** Decodes the file; `fileName` overrides the name shown (the demo). */
  open(path: string, options?: { fileName?: string }): void;
  /** Stops a decode; unknown or finished ids are ignored. */
  cancel(jobId: number): void;
  /** Decodes running now (tests). */
  runningJobIds(): number[];
}

interface Job {
  readonly contents: WebContents;
  worker: DecodeWorkerHandle | null;
}

interface PendingOpen {
  readonly path: string;
  readonly fileName: string;
}

export function createDecodeService(dependencies: DecodeServiceDependencies): DecodeService {
  let target: WebContents | null = null;
  let rendererReady = false;
  const pending: PendingOpen[] = [];
  const jobs = new Map<number, Job>();
  let nextJobId = 1;

  function send(contents: WebContents, channel: string, payload: unknown): void {
    if (!contents.isDestroyed()) contents.send(channel, payload);
  }

  function endJob(jobId: number): Job | undefined {
    const job = jobs.get(jobId);
    if (!job) return undefined;
    jobs.delete(jobId);
    job.worker?.terminate();
    return job;
  }

  function endJobsOf(contents: WebContents): void {
    for (const [jobId, job] of jobs) if (job.contents === contents) endJob(jobId);
  }

  function fail(
    contents: WebContents,
    jobId: number,
    fileName: string,
    failure: DecodeFailure,
  ): void {
    send(contents, IpcChannel.decodeFailed, decodeFailedPayload(jobId, fileName, failure));
  }

  async function start(contents: WebContents, { path, fileName }: PendingOpen): Promise<void> {
    const jobId = nextJobId++;
    const job: Job = { contents, worker: null };
    jobs.set(jobId, job);

    let totalBytes: number;
    try {
      totalBytes = await dependencies.fileSize(path);
    } catch (error) {
      if (jobs.get(jobId) === job) {
        jobs.delete(jobId);
        fail(contents, jobId, fileName, failureOfError(error));
      }
      return;
    }
    if (jobs.get(jobId) !== job) return; // the page reloaded meanwhile

    send(
      contents,
      IpcChannel.decodeStarted,
      decodeStartedSchema.parse({ jobId, fileName, totalBytes }),
    );
    job.worker = dependencies.startWorker(path, {
      message(message) {
        if (jobs.get(jobId) !== job) return;
        switch (message.type) {
          case 'progress':
            send(
              contents,
              IpcChannel.decodeProgress,
              decodeProgressSchema.parse({
                jobId,
                stage: message.stage,
                bytesRead: message.bytesRead,
                totalBytes: message.totalBytes,
              }),
            );
            return;
          case 'done':
            endJob(jobId);
            try {
              send(contents, IpcChannel.decodeDone, { jobId, view: message.view });
            } catch (error) {
              // IPC could not serialize the view: say so rather than crash main. Our view, our bug.
              const reason = error instanceof Error ? error.message : String(error);
              const message = `could not pass the decoded view on (${reason})`;
              fail(contents, jobId, fileName, bugFailure(message, error));
              return;
            }
            dependencies.onDecoded?.(path);
            return;
          case 'failed':
            endJob(jobId);
            fail(contents, jobId, fileName, {
              message: message.message,
              ...(message.bugReport === undefined ? {} : { bugReport: message.bugReport }),
            });
            return;
        }
      },
      crashed(error) {
        if (jobs.get(jobId) !== job) return;
        endJob(jobId);
        fail(contents, jobId, fileName, crashFailure(error));
      },
    });
  }

  function flush(): void {
    if (!target || target.isDestroyed() || !rendererReady) return;
    for (const open of pending.splice(0)) void start(target, open);
  }

  return {
    attach(contents) {
      target = contents;
      rendererReady = false;
      // A reload replaces the page: its tabs are gone, and so is the point of their decodes.
      contents.on('did-start-loading', () => {
        if (target === contents) rendererReady = false;
        endJobsOf(contents);
      });
      contents.once('destroyed', () => {
        if (target === contents) target = null;
        endJobsOf(contents);
      });
    },

    markRendererReady(contents) {
      if (contents !== target) return;
      rendererReady = true;
      flush();
    },

    open(path, options = {}) {
      pending.push({ path, fileName: options.fileName ?? basename(path) });
      flush();
    },

    cancel(jobId) {
      endJob(jobId);
    },

    runningJobIds: () => [...jobs.keys()],
  };
}
