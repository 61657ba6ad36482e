import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnalyzedSnapshotData } from '@shared/analyzed/analyzed-snapshot';
import type {
  DecodeWorkerReply,
  DecodeWorkerRequest,
  PagePartJob,
} from '../workers/decode-worker-protocol';
import type { DecodeResources } from '@shared/analyzed/decode-budget';
import { browserDecodeResources, createPageDecoder } from './page-decoder';
import type { DecodeEvent } from './snapshot-client';

/** Just enough of a Worker: what the page posts, and a way to answer. */
class FakeWorker {
  onmessage: ((event: MessageEvent<DecodeWorkerReply>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  requests: DecodeWorkerRequest[] = [];
  transfers: Transferable[][] = [];
  terminated = false;
  postMessage(request: DecodeWorkerRequest, transfer: Transferable[] = []): void {
    this.requests.push(request);
    this.transfers.push(transfer);
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

/** Room for every decode at once unless a test says otherwise. */
const PLENTY: DecodeResources = { cores: 16, memoryBytes: 2 ** 40 };

function setup(
  resources: DecodeResources = PLENTY,
  prestarted: FakeWorker | null = null,
  decodeThreads: number | null = null,
) {
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
    {
      whenIdle: (run) => void idle.push(run),
      resources: () => resources,
      prestarted: prestarted as unknown as Worker | null,
      decodeThreads,
    },
  );
  const runIdle = () => {
    for (const run of idle.splice(0)) run();
  };
  return { decoder, events, workers, runIdle };
}

/** What a worker posts: plain data, which the page adopts (with a fresh derived-data cache). */
const snapshot = { fileName: 'run.pickle', devices: [] } as unknown as AnalyzedSnapshotData;
const adopted = expect.objectContaining({ fileName: 'run.pickle', devices: [] }) as unknown;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createPageDecoder', () => {
  it('hands the File to a worker and passes on its progress and view', () => {
    const { decoder, events, workers } = setup();
    const file = new File([new Uint8Array(10)], 'run.pickle');
    const outcomes: string[] = [];
    decoder.decode({ kind: 'file', file }, { onSettled: (outcome) => void outcomes.push(outcome) });
    const [worker] = workers;
    expect(worker!.requests).toEqual([{ kind: 'file', file }]);
    worker!.reply({ type: 'progress', stage: 'reading', bytesRead: 5, totalBytes: 10 });
    worker!.reply({ type: 'done', snapshot });
    expect(events).toEqual([
      {
        type: 'started',
        jobId: 'page-1',
        fileName: 'run.pickle',
        totalBytes: 10,
        waiting: false,
        rankGroup: null,
      },
      { type: 'progress', jobId: 'page-1', stage: 'reading', bytesRead: 5, totalBytes: 10 },
      { type: 'done', jobId: 'page-1', snapshot: adopted },
    ]);
    expect(worker!.terminated).toBe(true);
    expect(outcomes).toEqual(['decoded']);
  });

  it('hands a URL to the worker, which fetches it: the page itself fetches nothing', () => {
    vi.stubGlobal('fetch', () => {
      throw new Error('the page must not fetch');
    });
    const { decoder, events, workers } = setup();
    const url = `allocscope-file://snapshot/${'A'.repeat(43)}`;
    decoder.decode({ kind: 'url', url, fileName: 'run.pickle' });
    const [worker] = workers;
    expect(worker!.requests).toEqual([{ kind: 'url', url, fileName: 'run.pickle' }]);
    // The size comes with the response (Content-Length), in the worker's first report.
    worker!.reply({ type: 'progress', stage: 'reading', bytesRead: 0, totalBytes: 1234 });
    worker!.reply({ type: 'done', snapshot });
    expect(events).toEqual([
      {
        type: 'started',
        jobId: 'page-1',
        fileName: 'run.pickle',
        totalBytes: null,
        waiting: false,
        rankGroup: null,
      },
      { type: 'progress', jobId: 'page-1', stage: 'reading', bytesRead: 0, totalBytes: 1234 },
      { type: 'done', jobId: 'page-1', snapshot: adopted },
    ]);
  });

  it('posts only the fields of the request, whatever else the object carries', () => {
    const { decoder, workers } = setup();
    const source = { kind: 'url', url: 'http://x/demo.pickle', fileName: 'demo.pickle', extra: 1 };
    decoder.decode(source as Parameters<typeof decoder.decode>[0]);
    expect(workers[0]!.requests).toEqual([
      { kind: 'url', url: 'http://x/demo.pickle', fileName: 'demo.pickle' },
    ]);
  });

  it('says how each decode ended before its event goes out', () => {
    const { decoder, events, workers } = setup();
    const seen: string[] = [];
    const decode = (name: string) =>
      decoder.decode(
        { kind: 'url', url: `http://x/${name}`, fileName: name },
        { onSettled: (outcome) => void seen.push(`${name} ${outcome} after ${events.length}`) },
      );
    decode('a');
    decode('b');
    decode('c');
    decode('d');
    workers[0]!.reply({ type: 'done', snapshot });
    workers[1]!.reply({ type: 'failed', message: 'not a memory snapshot' });
    workers[2]!.crash('boom');
    decoder.cancel('page-4');
    decoder.cancel('page-4');
    workers[3]!.reply({ type: 'done', snapshot });
    expect(seen).toEqual([
      'a decoded after 4',
      'b failed after 5',
      'c failed after 6',
      'd cancelled after 7',
    ]);
    expect(events.map((event) => event.type)).toEqual([
      ...['started', 'started', 'started', 'started'],
      ...['done', 'failed', 'failed'],
    ]);
  });

  it('decodes as many at once as the cores allow; the rest wait in order, then start', () => {
    const { decoder, events, workers } = setup({ cores: 2, memoryBytes: 2 ** 40 });
    const outcomes: string[] = [];
    for (const name of ['r0', 'r1', 'r2', 'r3'])
      decoder.decode(
        { kind: 'file', file: new File([new Uint8Array(10)], `${name}.pickle`) },
        { rankGroup: 'job', onSettled: (outcome) => void outcomes.push(`${name} ${outcome}`) },
      );
    expect(workers.length).toBe(2);
    expect(
      events.map((event) => event.type === 'started' && [event.fileName, event.waiting]),
    ).toEqual([
      ['r0.pickle', false],
      ['r1.pickle', false],
      ['r2.pickle', true],
      ['r3.pickle', true],
    ]);
    expect(events.every((event) => event.type === 'started' && event.rankGroup === 'job')).toBe(
      true,
    );
    // r1 ends first: r2 takes its place (reading from 0), r3 still waits.
    workers[1]!.reply({ type: 'done', snapshot });
    expect(workers.length).toBe(3);
    expect(workers[2]!.requests).toEqual([
      { kind: 'file', file: expect.objectContaining({ name: 'r2.pickle' }) as unknown },
    ]);
    expect(events.slice(4)).toEqual([
      { type: 'progress', jobId: 'page-3', stage: 'reading', bytesRead: 0, totalBytes: 10 },
      { type: 'done', jobId: 'page-2', snapshot: adopted },
    ]);
    // A waiting job cancelled never starts; the next one does when a place frees.
    expect(decoder.cancel('page-4')).toBe(true);
    workers[0]!.reply({ type: 'done', snapshot });
    workers[2]!.reply({ type: 'done', snapshot });
    expect(workers.length).toBe(3);
    expect(outcomes).toEqual(['r1 decoded', 'r3 cancelled', 'r0 decoded', 'r2 decoded']);
  });

  it('starts a file beside others only if the memory they hold together allows', () => {
    // 3x a file's size while it decodes: 300 + 300 fits in 700, a third does not.
    const { decoder, events, workers } = setup({ cores: 8, memoryBytes: 700 });
    const file = (name: string, bytes: number) => new File([new Uint8Array(bytes)], name);
    decoder.decode({ kind: 'file', file: file('a', 100) });
    decoder.decode({ kind: 'file', file: file('b', 100) });
    decoder.decode({ kind: 'file', file: file('c', 100) });
    // A URL whose size the host gave is budgeted as well.
    decoder.decode({ kind: 'url', url: 'http://x/d', fileName: 'd', sizeBytes: 1000 });
    expect(workers.length).toBe(2);
    workers[0]!.reply({ type: 'done', snapshot });
    expect(workers.length).toBe(3);
    workers[1]!.reply({ type: 'done', snapshot });
    workers[2]!.reply({ type: 'done', snapshot });
    // Larger than the whole budget: it still opens, alone.
    expect(workers.length).toBe(4);
    expect(workers[3]!.requests).toEqual([{ kind: 'url', url: 'http://x/d', fileName: 'd' }]);
    expect(
      events.filter((event) => event.type === 'started').map((event) => event.waiting),
    ).toEqual([false, false, true, true]);
  });

  it('budgets a gzipped file as it will be unpacked', () => {
    // 10 bytes packed: 120 unpacked (the guess), 360 while decoding; two do not fit in 700.
    const { decoder, workers } = setup({ cores: 8, memoryBytes: 700 });
    const gz = (name: string) => new File([new Uint8Array(10)], `${name}.pickle.gz`);
    decoder.decode({ kind: 'file', file: gz('a') });
    decoder.decode({ kind: 'file', file: gz('b') });
    expect(workers.length).toBe(1);
    // Unpacked files of the same size would both have started.
    const plain = setup({ cores: 8, memoryBytes: 700 });
    plain.decoder.decode({ kind: 'file', file: new File([new Uint8Array(10)], 'a.pickle') });
    plain.decoder.decode({ kind: 'file', file: new File([new Uint8Array(10)], 'b.pickle') });
    expect(plain.workers.length).toBe(2);
  });

  it("reads the browser's cores and memory, half of it for decoding", () => {
    vi.stubGlobal('navigator', { hardwareConcurrency: 6, deviceMemory: 8 });
    expect(browserDecodeResources()).toEqual({ cores: 6, memoryBytes: 4 * 2 ** 30 });
    vi.stubGlobal('navigator', {});
    expect(browserDecodeResources()).toEqual({ cores: 2, memoryBytes: 2 * 2 ** 30 });
  });

  it('reports decode errors and crashes with the file name', () => {
    const { decoder, events, workers } = setup();
    decoder.decode({ kind: 'file', file: new File([], 'a.pickle') });
    decoder.decode({ kind: 'url', url: 'http://x/b', fileName: 'b.pickle' });
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
    const outcomes: string[] = [];
    const decoder = createPageDecoder(
      (event) => void events.push(event),
      () => {
        throw new TypeError('Worker is not a constructor');
      },
    );
    decoder.decode(
      { kind: 'file', file: new File([new Uint8Array(4)], 'a.pickle') },
      { onSettled: (outcome) => void outcomes.push(outcome) },
    );
    expect(outcomes).toEqual(['failed']);
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
    workers[0]!.reply({ type: 'done', snapshot });
    expect(events.map((event) => event.type)).toEqual(['started']);
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
    decoder.decode({ kind: 'url', url: 'http://x/b', fileName: 'b.pickle' });
    expect(requestsWhenStarted).toEqual([1, 1]);
  });

  describe('with a spare worker', () => {
    it('starts one at once, and the next file goes to it', () => {
      const { decoder, events, workers } = setup();
      decoder.keepSpareWorker();
      expect(workers).toHaveLength(1);
      const file = new File([new Uint8Array(3)], 'a.pickle');
      decoder.decode({ kind: 'file', file });
      expect(workers).toHaveLength(1);
      expect(workers[0]!.requests).toEqual([{ kind: 'file', file }]);
      workers[0]!.reply({ type: 'done', snapshot });
      expect(events.map((event) => event.type)).toEqual(['started', 'done']);
      expect(workers[0]!.terminated).toBe(true);
    });

    it('starts the next one when the page is idle and no decode runs', () => {
      const { decoder, workers, runIdle } = setup();
      decoder.keepSpareWorker();
      decoder.decode({ kind: 'file', file: new File([], 'a.pickle') });
      decoder.decode({ kind: 'file', file: new File([], 'b.pickle') });
      expect(workers).toHaveLength(2);
      workers[0]!.reply({ type: 'done', snapshot });
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

  describe('with a worker started before the page (allocscope serve)', () => {
    it('gives the first file to it, and starts none of its own until then', () => {
      const prestarted = new FakeWorker();
      const { decoder, events, workers, runIdle } = setup(PLENTY, prestarted);
      decoder.keepSpareWorker();
      expect(workers).toHaveLength(0);
      decoder.decode({ kind: 'url', url: 'http://x/files/0', fileName: 'a.pickle' });
      expect(workers).toHaveLength(0);
      expect(prestarted.requests).toEqual([
        { kind: 'url', url: 'http://x/files/0', fileName: 'a.pickle' },
      ]);
      prestarted.reply({ type: 'done', snapshot });
      expect(events.map((event) => event.type)).toEqual(['started', 'done']);
      expect(prestarted.terminated).toBe(true);
      // From then on, the page's own spare workers, as without one.
      runIdle();
      expect(workers).toHaveLength(1);
      expect(workers[0]!.requests).toEqual([]);
    });

    it('takes it even when the page keeps no spare', () => {
      const prestarted = new FakeWorker();
      const { decoder, workers } = setup(PLENTY, prestarted);
      decoder.decode({ kind: 'file', file: new File([], 'a.pickle') });
      expect(workers).toHaveLength(0);
      expect(prestarted.requests).toHaveLength(1);
    });

    it('drops it when it fails to load, and decodes in a worker of its own', () => {
      const prestarted = new FakeWorker();
      const { decoder, events, workers } = setup(PLENTY, prestarted);
      prestarted.crash('script error');
      expect(prestarted.terminated).toBe(true);
      decoder.decode({ kind: 'file', file: new File([], 'a.pickle') });
      expect(prestarted.requests).toEqual([]);
      expect(workers).toHaveLength(1);
      expect(workers[0]!.requests).toHaveLength(1);
      expect(events.map((event) => event.type)).toEqual(['started']);
    });

    it("reports it as the file's crash when it fails once it has the file", () => {
      const prestarted = new FakeWorker();
      const { decoder, events } = setup(PLENTY, prestarted);
      decoder.decode({ kind: 'file', file: new File([], 'a.pickle') });
      prestarted.crash('out of memory');
      expect(events.map((event) => event.type)).toEqual(['started', 'failed']);
      expect(prestarted.terminated).toBe(true);
    });
  });
  describe('a file decoded in parts', () => {
    /** A job as the spine posts it: the ports are what travels with it. */
    function partJob(part: number): PagePartJob {
      const toSpine = new MessageChannel();
      toSpine.port1.close();
      return {
        bytes: new Blob([]),
        starts: [0, 10, 20],
        part,
        toLater: [],
        fromEarlier: [],
        toSpine: toSpine.port2,
      };
    }

    it('asks for the threads ?jobs= gives when the file decodes alone, and none beside another', () => {
      const { decoder, workers } = setup(PLENTY, null, 3);
      const first = new File([new Uint8Array(10)], 'a.pickle');
      decoder.decode({ kind: 'file', file: first });
      expect(workers[0]!.requests).toEqual([{ kind: 'file', file: first, threads: 3 }]);
      const second = new File([new Uint8Array(10)], 'b.pickle');
      decoder.decode({ kind: 'file', file: second });
      expect(workers[1]!.requests).toEqual([{ kind: 'file', file: second }]);
    });

    it('asks for none unless ?jobs= does (the page reads a File slower than it streams it)', () => {
      const { decoder, workers } = setup(PLENTY);
      const file = new File([new Uint8Array(10)], 'a.pickle');
      decoder.decode({ kind: 'file', file });
      expect(workers[0]!.requests).toEqual([{ kind: 'file', file }]);
    });

    it('asks a served file (ranges answered) for parts by range, never a URL that is not', () => {
      const { decoder, workers } = setup(PLENTY, null, 3);
      const url = 'http://127.0.0.1:7317/t/files/0';
      decoder.decode({ kind: 'url', url, fileName: 'a.pickle', sizeBytes: 500, seekable: true });
      expect(workers[0]!.requests).toEqual([
        { kind: 'url', url, fileName: 'a.pickle', ranges: { sizeBytes: 500, threads: 3 } },
      ]);
      workers[0]!.reply({ type: 'done', snapshot });
      // Electron's hand-over, the demo: read as a stream.
      decoder.decode({ kind: 'url', url, fileName: 'b.pickle', sizeBytes: 500 });
      expect(workers[1]!.requests).toEqual([{ kind: 'url', url, fileName: 'b.pickle' }]);
    });

    it("starts a worker per part, hands each its job and ports, and ends them with the file's", () => {
      const { decoder, events, workers } = setup(PLENTY, null, 3);
      decoder.decode({ kind: 'file', file: new File([new Uint8Array(10)], 'a.pickle') });
      const spine = workers[0]!;
      const jobs = [partJob(1), partJob(2)];
      spine.reply({ type: 'start-parts', jobs });
      expect(workers).toHaveLength(3);
      for (const [index, job] of jobs.entries()) {
        const partWorker = workers[index + 1]!;
        expect(partWorker.requests).toEqual([{ kind: 'part', job }]);
        expect(partWorker.transfers).toEqual([[job.toSpine]]);
      }
      spine.reply({ type: 'done', snapshot, threads: 3 });
      expect(workers.map((worker) => worker.terminated)).toEqual([true, true, true]);
      expect(events.at(-1)).toEqual({
        type: 'done',
        jobId: 'page-1',
        snapshot: adopted,
        decodeThreads: 3,
      });
    });

    it("tells the spine when a part's worker crashes, and the spine's answer is the file's", () => {
      const { decoder, events, workers } = setup(PLENTY, null, 3);
      decoder.decode({ kind: 'file', file: new File([new Uint8Array(10)], 'a.pickle') });
      const spine = workers[0]!;
      spine.reply({ type: 'start-parts', jobs: [partJob(1), partJob(2)] });
      workers[2]!.crash('out of memory');
      expect(spine.requests.at(-1)).toEqual({ kind: 'part-lost' });
      // The page does not fail the file: the spine decodes it on one thread.
      expect(events.map((event) => event.type)).toEqual(['started']);
      // It gives the parts up: their workers end now, not with the file.
      spine.reply({ type: 'end-parts' });
      expect(workers.map((worker) => worker.terminated)).toEqual([false, true, true]);
      spine.reply({ type: 'done', snapshot });
      expect(events.at(-1)).toEqual({ type: 'done', jobId: 'page-1', snapshot: adopted });
    });

    it("ends the parts' workers when the decode is cancelled", () => {
      const { decoder, workers } = setup(PLENTY, null, 2);
      decoder.decode({ kind: 'file', file: new File([new Uint8Array(10)], 'a.pickle') });
      workers[0]!.reply({ type: 'start-parts', jobs: [partJob(1)] });
      expect(decoder.cancel('page-1')).toBe(true);
      expect(workers.map((worker) => worker.terminated)).toEqual([true, true]);
    });
  });
});
