import { describe, expect, it } from 'vitest';
import type { AnalyzedSnapshotData } from '@shared/analyzed/analyzed-snapshot';
import type { AllocscopeBridge, SnapshotHandover, SnapshotOutcome } from '../../preload/index.d';
import type { DecodeWorkerReply, DecodeWorkerRequest } from '../workers/decode-worker-protocol';
import { createElectronSnapshotClient } from './electron-snapshot-client';
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
}

/** A bridge as the preload gives it, with main's side played by the test. */
function fakeBridge() {
  let handover: ((handover: SnapshotHandover) => void) | null = null;
  const calls: string[] = [];
  const settled: [string, SnapshotOutcome][] = [];
  const droppedPaths = new Map<File, string>();
  const bridge: AllocscopeBridge = {
    showOpenDialog: () => Promise.resolve(void calls.push('showOpenDialog')),
    showOpenFolderDialog: () => Promise.resolve(void calls.push('showOpenFolderDialog')),
    openRecentFile: (path) => void calls.push(`openRecentFile ${path}`),
    openDroppedFile(file) {
      const path = droppedPaths.get(file);
      if (path !== undefined) calls.push(`openDroppedFile ${path}`);
      return path !== undefined;
    },
    openDemoSnapshot: () => void calls.push('openDemoSnapshot'),
    getRecentFiles: () => Promise.resolve([]),
    onSnapshotHandover(listener) {
      calls.push('onSnapshotHandover');
      handover = listener;
      return () => (handover = null);
    },
    settleSnapshot: (url, outcome) => void settled.push([url, outcome]),
    onMenuCommand: () => () => {},
    saveExport: () => Promise.resolve({ saved: false }),
    onMenuExport: () => () => {},
    signalRendererReady: () => void calls.push('signalRendererReady'),
  };
  const handOver = (
    url: string,
    fileName: string,
    extra: { sizeBytes?: number | null; rankGroup?: string | null } = {},
  ) =>
    handover?.({
      url,
      fileName,
      sizeBytes: extra.sizeBytes ?? null,
      rankGroup: extra.rankGroup ?? null,
    });
  return { bridge, calls, settled, droppedPaths, handOver };
}

function setup() {
  const main = fakeBridge();
  const workers: FakeWorker[] = [];
  const client = createElectronSnapshotClient(main.bridge, (emit) =>
    createPageDecoder(
      emit,
      () => {
        const worker = new FakeWorker();
        workers.push(worker);
        return worker as unknown as Worker;
      },
      { whenIdle: () => {} },
    ),
  );
  const events: DecodeEvent[] = [];
  return {
    ...main,
    client,
    workers,
    events,
    listen: () => client.subscribe((e) => void events.push(e)),
  };
}

const snapshot = { fileName: 'run.pickle', devices: [] } as unknown as AnalyzedSnapshotData;
const url = (letter: string) => `allocscope-file://snapshot/${letter.repeat(43)}`;

describe('createElectronSnapshotClient', () => {
  it('decodes what main hands over in the page worker, as the web build does, and tells main', () => {
    const { client, workers, events, settled, handOver, listen } = setup();
    expect(client.host).toBe('electron');
    // A spare worker is started at once, as in the web build.
    expect(workers).toHaveLength(1);
    listen();
    handOver(url('A'), 'run.pickle');
    expect(workers[0]!.requests).toEqual([{ kind: 'url', url: url('A'), fileName: 'run.pickle' }]);
    workers[0]!.reply({ type: 'progress', stage: 'reading', bytesRead: 10, totalBytes: 100 });
    workers[0]!.reply({ type: 'done', snapshot });
    expect(events.map((event) => event.type)).toEqual(['started', 'progress', 'done']);
    expect(events[0]).toEqual({
      type: 'started',
      jobId: 'page-1',
      fileName: 'run.pickle',
      totalBytes: null,
      waiting: false,
      rankGroup: null,
    });
    expect(settled).toEqual([[url('A'), 'decoded']]);
  });

  it('tells main of failures and cancels, and cancel ends the worker (and its fetch)', () => {
    const { client, workers, settled, handOver, listen } = setup();
    listen();
    handOver(url('A'), 'a.pickle');
    handOver(url('B'), 'b.pickle');
    workers[0]!.reply({ type: 'failed', message: 'no such file' });
    client.cancel('page-2');
    client.cancel('page-2');
    client.cancel('main-1'); // no such job any more: ignored
    expect(workers[1]!.terminated).toBe(true);
    expect(settled).toEqual([
      [url('A'), 'failed'],
      [url('B'), 'cancelled'],
    ]);
  });

  it('subscribes to main once, and says it is ready at every subscription', () => {
    const { calls, listen } = setup();
    expect(calls).toEqual([]);
    const stop = listen();
    listen();
    stop();
    expect(calls).toEqual(['onSnapshotHandover', 'signalRendererReady', 'signalRendererReady']);
  });

  it('hands a dropped file from disk to main, and decodes any other File itself', () => {
    const { client, calls, droppedPaths, workers, events, listen } = setup();
    listen();
    const fromDisk = new File([], 'disk.pickle');
    droppedPaths.set(fromDisk, '/data/disk.pickle');
    client.openFile(fromDisk);
    expect(calls).toContain('openDroppedFile /data/disk.pickle');
    expect(workers[0]!.requests).toEqual([]);

    const madeByPage = new File([new Uint8Array(5)], 'made.pickle');
    client.openFile(madeByPage);
    expect(workers[0]!.requests).toEqual([{ kind: 'file', file: madeByPage }]);
    expect(events[0]).toMatchObject({ type: 'started', totalBytes: 5 });
  });

  it("takes a rank's size and rank from main's hand-over, and decodes a folder's Files itself", () => {
    const { client, calls, droppedPaths, workers, events, listen, handOver } = setup();
    listen();
    handOver(url('A'), 'rank0.pickle', { sizeBytes: 1234, rankGroup: 'job' });
    expect(events[0]).toMatchObject({ type: 'started', totalBytes: 1234, rankGroup: 'job' });
    const fromFolder = new File([new Uint8Array(3)], 'rank1.pickle');
    droppedPaths.set(fromFolder, '/data/job/rank1.pickle');
    client.openFile(fromFolder, { rankGroup: 'job' });
    expect(calls).not.toContain('openDroppedFile /data/job/rank1.pickle');
    expect(workers.flatMap((worker) => worker.requests)).toContainEqual({
      kind: 'file',
      file: fromFolder,
    });
    expect(events.at(-1)).toMatchObject({
      type: 'started',
      fileName: 'rank1.pickle',
      rankGroup: 'job',
    });
  });

  it("passes the menu's, the dialog's and the recent list's requests to main", async () => {
    const { client, calls } = setup();
    await client.showOpenDialog?.();
    await client.showOpenFolderDialog?.();
    client.openDemo();
    client.recentFiles?.open('/data/run.pickle');
    expect(await client.recentFiles?.list()).toEqual([]);
    expect(calls).toEqual([
      'showOpenDialog',
      'showOpenFolderDialog',
      'openDemoSnapshot',
      'openRecentFile /data/run.pickle',
    ]);
  });
});
