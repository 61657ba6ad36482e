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
  /** Callbacks waiting for the page to be idle (run by the test). */
  const idle: (() => void)[] = [];
  const decoder = createPageDecoder(
    (event) => void events.push(event),
    () => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker as unknown as Worker;
    },
    { whenIdle: (run) => void idle.push(run) },
  );
  const runIdle = () => {
    for (const run of idle.splice(0)) run();
  };
  return { decoder, events, workers, runIdle };
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
        // A crash is a bug in allocscope, whatever the file.
        bugReport: 'allocscope internal error\nthe decoder stopped unexpectedly (out of memory)',
      },
    ]);
  });

  it("passes on a bug's report from the worker", () => {
    const { decoder, events, workers } = setup();
    decoder.decode({ kind: 'file', file: new File([], 'a.pickle') });
    const bugReport = 'allocscope internal error\nTypeError: boom\n    at decode (worker.js:1:2)';
    workers[0]!.reply({ type: 'failed', message: 'internal error: boom', bugReport });
    expect(events.at(-1)).toEqual({
      type: 'failed',
      jobId: 'page-1',
      fileName: 'a.pickle',
      message: 'internal error: boom',
      bugReport,
    });
  });

  it('reports a decoder that cannot start as a bug', () => {
    const events: DecodeEvent[] = [];
    const decoder = createPageDecoder(
      (event) => void events.push(event),
      () => {
        throw new TypeError('Worker is not a constructor');
      },
    );
    decoder.decode({ kind: 'file', file: new File([new Uint8Array(4)], 'a.pickle') });
    expect(events.map((event) => event.type)).toEqual(['started', 'failed']);
    expect(events[1]).toMatchObject({
      type: 'failed',
      fileName: 'a.pickle',
      message: 'could not start the decoder: Worker is not a constructor',
      bugReport: expect.stringContaining('TypeError: Worker is not a constructor') as unknown,
    });
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

  it('hands the file over before announcing the decode', () => {
    const requestsWhenStarted: number[] = [];
    const workers: FakeWorker[] = [];
    const decoder = createPageDecoder(
      (event) => {
        if (event.type === 'started') requestsWhenStarted.push(workers[0]!.requests.length);
      },
      () => {
        const worker = new FakeWorker();
        workers.push(worker);
        return worker as unknown as Worker;
      },
    );
    decoder.decode({ kind: 'file', file: new File([], 'a.pickle') });
    expect(requestsWhenStarted).toEqual([1]);
  });

  describe('with a spare worker', () => {
    it('starts one at once, and the next file goes to it', () => {
      const { decoder, events, workers } = setup();
      decoder.keepSpareWorker();
      expect(workers).toHaveLength(1);
      const file = new File([new Uint8Array(3)], 'a.pickle');
      decoder.decode({ kind: 'file', file });
      expect(workers).toHaveLength(1);
      expect(workers[0]!.requests).toEqual([{ file }]);
      workers[0]!.reply({ type: 'done', view });
      expect(events.map((event) => event.type)).toEqual(['started', 'done']);
      expect(workers[0]!.terminated).toBe(true);
    });

    it('starts the next one when the page is idle and no decode runs', () => {
      const { decoder, workers, runIdle } = setup();
      decoder.keepSpareWorker();
      decoder.decode({ kind: 'file', file: new File([], 'a.pickle') });
      decoder.decode({ kind: 'file', file: new File([], 'b.pickle') });
      expect(workers).toHaveLength(2);
      workers[0]!.reply({ type: 'done', view });
      runIdle(); // b.pickle still decodes: no spare yet
      expect(workers).toHaveLength(2);
      workers[1]!.reply({ type: 'failed', message: 'not a memory snapshot' });
      expect(workers).toHaveLength(2);
      runIdle();
      expect(workers).toHaveLength(3);
      expect(workers[2]!.requests).toEqual([]);
      decoder.decode({ kind: 'file', file: new File([], 'c.pickle') });
      expect(workers).toHaveLength(3);
      expect(workers[2]!.requests).toHaveLength(1);
    });

    it('starts another after a cancel', () => {
      const { decoder, workers, runIdle } = setup();
      decoder.keepSpareWorker();
      decoder.decode({ kind: 'file', file: new File([], 'a.pickle') });
      expect(decoder.cancel('page-1')).toBe(true);
      expect(workers[0]!.terminated).toBe(true);
      runIdle();
      expect(workers).toHaveLength(2);
      expect(workers[1]!.terminated).toBe(false);
    });

    it('drops a spare that fails to load, and decodes in a fresh worker', () => {
      const { decoder, events, workers } = setup();
      decoder.keepSpareWorker();
      workers[0]!.crash('script error');
      expect(workers[0]!.terminated).toBe(true);
      decoder.decode({ kind: 'file', file: new File([], 'a.pickle') });
      expect(workers).toHaveLength(2);
      expect(workers[1]!.requests).toHaveLength(1);
      expect(events.map((event) => event.type)).toEqual(['started']);
    });
  });
});
