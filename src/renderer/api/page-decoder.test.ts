import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotView } from '@shared/view/snapshot-view';
import type { DecodeWorkerReply, DecodeWorkerRequest } from '../workers/decode-worker-protocol';
import { createPageDecoder } from './page-decoder';
import type { DecodeEvent } from './snapshot-client';

/** Just enough of a Worker: what the page posts, and a way to answer. */
class FakeWorker {
  onmessage: ((event: MessageEvent<DecodeWorkerReply>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  requests: DecodeWorkerRequest[] = [];
  terminated = false;
  postMessage(request: DecodeWorkerRequest): void {
    this.requests.push(request);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(data: DecodeWorkerReply): void {
    this.onmessage?.({ data } as MessageEvent<DecodeWorkerReply>);
  }
  crash(message: string): void {
    this.onerror?.({ message, preventDefault: () => {} } as ErrorEvent);
  }
}

function setup() {
  const events: DecodeEvent[] = [];
  const workers: FakeWorker[] = [];
  const decoder = createPageDecoder(
    (event) => void events.push(event),
    () => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker as unknown as Worker;
    },
  );
  return { decoder, events, workers };
}

const view = { fileName: 'run.pickle' } as SnapshotView;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createPageDecoder', () => {
  it('hands the File to a worker and passes on its progress and view', () => {
    const { decoder, events, workers } = setup();
    const file = new File([new Uint8Array(10)], 'run.pickle');
    decoder.decode({ kind: 'file', file });
    const [worker] = workers;
    expect(worker!.requests).toEqual([{ file }]);
    worker!.reply({ type: 'progress', stage: 'reading', bytesRead: 5, totalBytes: 10 });
    worker!.reply({ type: 'done', view });
    expect(events).toEqual([
      { type: 'started', jobId: 'page-1', fileName: 'run.pickle', totalBytes: 10 },
      { type: 'progress', jobId: 'page-1', stage: 'reading', bytesRead: 5, totalBytes: 10 },
      { type: 'done', jobId: 'page-1', view },
    ]);
    expect(worker!.terminated).toBe(true);
  });

  it('reports decode errors and crashes with the file name', () => {
    const { decoder, events, workers } = setup();
    decoder.decode({ kind: 'file', file: new File([], 'a.pickle') });
    decoder.decode({ kind: 'file', file: new File([], 'b.pickle') });
    workers[0]!.reply({ type: 'failed', message: 'not a memory snapshot' });
    workers[1]!.crash('out of memory');
    expect(events.filter((event) => event.type === 'failed')).toEqual([
      { type: 'failed', jobId: 'page-1', fileName: 'a.pickle', message: 'not a memory snapshot' },
      {
        type: 'failed',
        jobId: 'page-2',
        fileName: 'b.pickle',
        message: 'the decoder stopped unexpectedly (out of memory)',
      },
    ]);
  });

  it('cancel terminates the worker and drops what it sends afterwards', () => {
    const { decoder, events, workers } = setup();
    decoder.decode({ kind: 'file', file: new File([], 'a.pickle') });
    expect(decoder.cancel('page-1')).toBe(true);
    expect(decoder.cancel('page-1')).toBe(false);
    expect(decoder.cancel('main-1')).toBe(false);
    expect(workers[0]!.terminated).toBe(true);
    workers[0]!.reply({ type: 'done', view });
    expect(events.map((event) => event.type)).toEqual(['started']);
  });

  it('downloads a URL, then decodes it as a File of that name', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(new Uint8Array(7))));
    const { decoder, events, workers } = setup();
    decoder.decode({ kind: 'url', url: 'http://localhost/demo.pickle', fileName: 'demo.pickle' });
    expect(events).toEqual([
      { type: 'started', jobId: 'page-1', fileName: 'demo.pickle', totalBytes: null },
    ]);
    await settle();
    const file = workers[0]!.requests[0]!.file;
    expect(file.name).toBe('demo.pickle');
    expect(file.size).toBe(7);
  });

  it('says when the URL is missing, and stays quiet about a cancelled download', async () => {
    vi.stubGlobal('fetch', (_url: string, init: RequestInit) =>
      init.signal?.aborted
        ? Promise.reject(new DOMException('aborted', 'AbortError'))
        : Promise.resolve(new Response('Not found', { status: 404 })),
    );
    const { decoder, events, workers } = setup();
    decoder.decode({ kind: 'url', url: 'http://localhost/demo.pickle', fileName: 'demo.pickle' });
    await settle();
    expect(events.at(-1)).toEqual({
      type: 'failed',
      jobId: 'page-1',
      fileName: 'demo.pickle',
      message: 'the file is not part of this build',
    });

    decoder.decode({ kind: 'url', url: 'http://localhost/demo.pickle', fileName: 'demo.pickle' });
    expect(decoder.cancel('page-2')).toBe(true);
    await settle();
    expect(events.at(-1)).toMatchObject({ type: 'started', jobId: 'page-2' });
    expect(workers).toEqual([]);
  });
});
