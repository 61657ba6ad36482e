import type { DecodeWorkerReply, DecodeWorkerRequest } from '../workers/decode-worker-protocol';
import DecodeWorker from '../workers/decode-worker?worker&inline';
import type { DecodeEvent } from './snapshot-client';

// Decodes in the page's own Web Workers, one per file. Inline (a blob: URL) because browsers
// refuse worker scripts loaded from file:// pages, and the web build must work from disk.

export type PageDecodeSource =
  /** A File the user chose or dropped. */
  | { readonly kind: 'file'; readonly file: File }
  /** A file served beside the page (the demo snapshot): downloaded, then decoded as a File. */
  | { readonly kind: 'url'; readonly url: string; readonly fileName: string };

export interface PageDecoder {
  decode(source: PageDecodeSource): void;
  /** True when the job was this decoder's (and is now stopped). */
  cancel(jobId: string): boolean;
}

export function createPageDecoder(
  emit: (event: DecodeEvent) => void,
  startWorker: () => Worker = () => new DecodeWorker({ name: 'allocscope-decoder' }),
): PageDecoder {
  /** Per job, how to stop it: abort the download, or end the worker. */
  const stops = new Map<string, () => void>();
  let nextJob = 1;

  function finish(jobId: string): boolean {
    const stop = stops.get(jobId);
    if (!stop) return false;
    stops.delete(jobId);
    stop();
    return true;
  }

  function decodeFile(jobId: string, file: File): void {
    let worker: Worker;
    try {
      worker = startWorker();
    } catch (error) {
      stops.delete(jobId);
      const message = `could not start the decoder: ${errorText(error)}`;
      emit({ type: 'failed', jobId, fileName: file.name, message });
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
          emit({ type: 'failed', jobId, fileName: file.name, message: reply.message });
          return;
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (!finish(jobId)) return;
      const detail = event.message ? ` (${event.message})` : '';
      const message = `the decoder stopped unexpectedly${detail}`;
      emit({ type: 'failed', jobId, fileName: file.name, message });
    };
    const request: DecodeWorkerRequest = { file };
    worker.postMessage(request);
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
        emit({ type: 'failed', jobId, fileName, message: errorText(error) });
      },
    );
  }

  return {
    decode(source) {
      const jobId = `page-${nextJob++}`;
      if (source.kind === 'file') {
        emit({ type: 'started', jobId, fileName: source.file.name, totalBytes: source.file.size });
        decodeFile(jobId, source.file);
      } else {
        emit({ type: 'started', jobId, fileName: source.fileName, totalBytes: null });
        download(jobId, source.url, source.fileName);
      }
    },
    cancel: finish,
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
