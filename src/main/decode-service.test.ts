import { EventEmitter } from 'node:events';
import type { WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { IpcChannel } from '../preload/ipc-channels';
import type { SnapshotView } from '@shared/view/snapshot-view';
import {
  createDecodeService,
  type DecodeServiceDependencies,
  type DecodeWorkerEvents,
} from './decode-service';

/** Just enough of WebContents for the service: events, send and isDestroyed. */
function fakeContents(): WebContents & { sent: [string, unknown][] } {
  const emitter = new EventEmitter();
  const sent: [string, unknown][] = [];
  return Object.assign(emitter, {
    sent,
    send: (channel: string, payload: unknown) => void sent.push([channel, payload]),
    isDestroyed: () => false,
  }) as unknown as WebContents & { sent: [string, unknown][] };
}

interface FakeWorker {
  path: string;
  events: DecodeWorkerEvents;
  terminated: boolean;
}

function fakeDependencies(sizes: Record<string, number>) {
  const workers: FakeWorker[] = [];
  const decoded: string[] = [];
  const dependencies: DecodeServiceDependencies = {
    startWorker(path, events) {
      const worker: FakeWorker = { path, events, terminated: false };
      workers.push(worker);
      return { terminate: () => void (worker.terminated = true) };
    },
    fileSize(path) {
      const size = sizes[path];
      return size === undefined
        ? Promise.reject(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }))
        : Promise.resolve(size);
    },
    onDecoded: (path) => void decoded.push(path),
  };
  return { dependencies, workers, decoded };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const view = { fileName: 'run.pickle' } as SnapshotView;

describe('createDecodeService', () => {
  it('holds files until the page is ready, then reports start, progress and the view', async () => {
    const { dependencies, workers, decoded } = fakeDependencies({ '/data/run.pickle': 1234 });
    const service = createDecodeService(dependencies);
    const contents = fakeContents();
    service.attach(contents);
    service.open('/data/run.pickle');
    await settle();
    expect(workers).toEqual([]);

    service.markRendererReady(contents);
    await settle();
    expect(contents.sent).toEqual([
      [IpcChannel.decodeStarted, { jobId: 1, fileName: 'run.pickle', totalBytes: 1234 }],
    ]);
    const [worker] = workers;
    worker!.events.message({
      type: 'progress',
      stage: 'reading',
      bytesRead: 100,
      totalBytes: 1234,
    });
    worker!.events.message({ type: 'done', view });
    expect(contents.sent.slice(1)).toEqual([
      [IpcChannel.decodeProgress, { jobId: 1, stage: 'reading', bytesRead: 100, totalBytes: 1234 }],
      [IpcChannel.decodeDone, { jobId: 1, view }],
    ]);
    expect(worker!.terminated).toBe(true);
    expect(decoded).toEqual(['/data/run.pickle']);
    expect(service.runningJobIds()).toEqual([]);
  });

  it('reports a file that cannot be read as a failure with its name', async () => {
    const { dependencies, workers } = fakeDependencies({});
    const service = createDecodeService(dependencies);
    const contents = fakeContents();
    service.attach(contents);
    service.markRendererReady(contents);
    service.open('/data/gone.pickle');
    await settle();
    expect(workers).toEqual([]);
    expect(contents.sent).toEqual([
      [IpcChannel.decodeFailed, { jobId: 1, fileName: 'gone.pickle', message: 'no such file' }],
    ]);
  });

  it('passes on decode errors and crashes, and never reports twice', async () => {
    const { dependencies, workers, decoded } = fakeDependencies({ '/a.pickle': 1, '/b.pickle': 2 });
    const service = createDecodeService(dependencies);
    const contents = fakeContents();
    service.attach(contents);
    service.markRendererReady(contents);
    service.open('/a.pickle');
    service.open('/b.pickle', { fileName: 'demo.pickle' });
    await settle();
    const [a, b] = workers;
    a!.events.message({ type: 'failed', message: 'not a memory snapshot' });
    a!.events.crashed(new Error('late'));
    b!.events.crashed(new Error('exit code 1'));
    b!.events.message({ type: 'done', view });
    expect(contents.sent.filter(([channel]) => channel === IpcChannel.decodeFailed)).toEqual([
      [
        IpcChannel.decodeFailed,
        { jobId: 1, fileName: 'a.pickle', message: 'not a memory snapshot' },
      ],
      [
        IpcChannel.decodeFailed,
        {
          jobId: 2,
          fileName: 'demo.pickle',
          message: 'the decoder stopped unexpectedly (exit code 1)',
          // A crashed worker is a bug, reported with its stack.
          bugReport: expect.stringContaining('Error: exit code 1') as unknown,
        },
      ],
    ]);
    expect(contents.sent.some(([channel]) => channel === IpcChannel.decodeDone)).toBe(false);
    expect(decoded).toEqual([]);
  });

  it("passes on a bug's report, and calls a worker out of memory the file's size", async () => {
    const { dependencies, workers } = fakeDependencies({ '/a.pickle': 1, '/b.pickle': 2 });
    const service = createDecodeService(dependencies);
    const contents = fakeContents();
    service.attach(contents);
    service.markRendererReady(contents);
    service.open('/a.pickle');
    service.open('/b.pickle');
    await settle();
    const bugReport = 'allocscope internal error\nTypeError: boom\n    at decode (worker.js:1:2)';
    workers[0]!.events.message({ type: 'failed', message: 'internal error: boom', bugReport });
    const outOfMemory = Object.assign(new Error('JS heap out of memory'), {
      code: 'ERR_WORKER_OUT_OF_MEMORY',
    });
    workers[1]!.events.crashed(outOfMemory);
    expect(contents.sent.filter(([channel]) => channel === IpcChannel.decodeFailed)).toEqual([
      [
        IpcChannel.decodeFailed,
        { jobId: 1, fileName: 'a.pickle', message: 'internal error: boom', bugReport },
      ],
      [
        IpcChannel.decodeFailed,
        {
          jobId: 2,
          fileName: 'b.pickle',
          message: 'not enough memory to decode this file (JS heap out of memory)',
        },
      ],
    ]);
  });

  it('cancel ends the worker and drops whatever it sends afterwards', async () => {
    const { dependencies, workers } = fakeDependencies({ '/a.pickle': 1 });
    const service = createDecodeService(dependencies);
    const contents = fakeContents();
    service.attach(contents);
    service.markRendererReady(contents);
    service.open('/a.pickle');
    await settle();
    expect(service.runningJobIds()).toEqual([1]);
    service.cancel(1);
    service.cancel(99);
    expect(workers[0]!.terminated).toBe(true);
    workers[0]!.events.message({ type: 'done', view });
    expect(contents.sent.map(([channel]) => channel)).toEqual([IpcChannel.decodeStarted]);
  });

  it('a reload ends running decodes and waits for the new page', async () => {
    const { dependencies, workers } = fakeDependencies({ '/a.pickle': 1 });
    const service = createDecodeService(dependencies);
    const contents = fakeContents();
    service.attach(contents);
    service.markRendererReady(contents);
    service.open('/a.pickle');
    await settle();
    contents.emit('did-start-loading');
    expect(workers[0]!.terminated).toBe(true);
    service.open('/a.pickle');
    await settle();
    expect(workers).toHaveLength(1);
    service.markRendererReady(fakeContents()); // another page: ignored
    await settle();
    expect(workers).toHaveLength(1);
    service.markRendererReady(contents);
    await settle();
    expect(workers).toHaveLength(2);
  });
});

describe('createDecodeService when the view cannot be sent', () => {
  it('reports a failure instead of throwing in main', async () => {
    const { dependencies, workers, decoded } = fakeDependencies({ '/a.pickle': 1 });
    const service = createDecodeService(dependencies);
    const contents = fakeContents();
    const send = contents.send.bind(contents);
    contents.send = (channel: string, payload: unknown) => {
      if (channel === IpcChannel.decodeDone) throw new Error('An object could not be cloned.');
      send(channel, payload);
    };
    service.attach(contents);
    service.markRendererReady(contents);
    service.open('/a.pickle');
    await settle();
    workers[0]!.events.message({ type: 'done', view });
    expect(contents.sent.at(-1)).toEqual([
      IpcChannel.decodeFailed,
      {
        jobId: 1,
        fileName: 'a.pickle',
        message: 'could not pass the decoded view on (An object could not be cloned.)',
        bugReport: expect.stringContaining('An object could not be cloned.') as unknown,
      },
    ]);
    expect(decoded).toEqual([]);
  });
});
