// A page served by `allocscope serve` asks for its files as the client is made, before React has
// mounted anything that listens: what the decodes report meanwhile is kept, in order, for the
// first listener, and handed over once (not lost, not repeated to a listener added later).

import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVED_MANIFEST_SCHEMA, type ServedManifest } from '@shared/report/served-manifest';
import type { DecodeEvent } from './snapshot-client';
import {
  createWebSnapshotClient,
  MAX_PAGE_DECODE_THREADS,
  requestedDecodeThreads,
} from './web-snapshot-client';

const PAGE = 'http://127.0.0.1:7317/tok3n/';

const manifest: ServedManifest = {
  schema: SERVED_MANIFEST_SCHEMA,
  host: 'gpu-box',
  files: [
    { id: '0', name: 'a.pickle', path: '/runs/a.pickle', sizeBytes: 10, group: null },
    { id: '1', name: 'b.pickle', path: '/runs/b.pickle', sizeBytes: 20, group: null },
  ],
};

/** A served page: its marker names the manifest; no embedded snapshot. */
function servedPage(): Document {
  return {
    querySelector: (selector: string) =>
      selector.includes('allocscope-served') ? { content: 'served.json' } : null,
    querySelectorAll: () => [],
    getElementById: () => null,
  } as unknown as Document;
}

afterEach(() => vi.unstubAllGlobals());

describe('createWebSnapshotClient on a served page', () => {
  it('asks for the files at once and keeps what they report for the first listener', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      asked.push(url);
      return Promise.resolve(new Response(JSON.stringify(manifest)));
    });
    const client = createWebSnapshotClient(
      { href: PAGE, protocol: 'http:' } as Location,
      servedPage(),
    );
    // Asked before anyone listens.
    expect(asked).toEqual([`${PAGE}served.json`]);
    // The manifest arrives and both decodes start (and, with no Worker in this test, fail)
    // while nobody listens yet.
    await new Promise((resolve) => setTimeout(resolve, 20));

    const first: DecodeEvent[] = [];
    const second: DecodeEvent[] = [];
    const removeFirst = client.subscribe((event) => first.push(event));
    removeFirst();
    client.subscribe((event) => second.push(event));
    await Promise.resolve();
    await Promise.resolve();

    // Handed over once, after the current task, to whoever listens then, in the order they came.
    expect(first).toEqual([]);
    const started = second.filter((event) => event.type === 'started');
    expect(started.map((event) => event.type === 'started' && event.fileName)).toEqual([
      'a.pickle',
      'b.pickle',
    ]);
    expect(started[0]).toMatchObject({ servedFrom: 'gpu-box:/runs/a.pickle' });
    const jobs = second.map((event) => event.jobId);
    expect(new Set(jobs).size).toBe(2);

    // A listener added later gets what happens from then on only.
    const third: DecodeEvent[] = [];
    client.subscribe((event) => third.push(event));
    await Promise.resolve();
    expect(third).toEqual([]);
  });

  it('says when the files are handed to the decoder, so that the page can mount after', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify(manifest))));
    const client = createWebSnapshotClient(
      { href: PAGE, protocol: 'http:' } as Location,
      servedPage(),
    );
    await client.pageFilesHandedOver;
    // Both decodes were started by then: their first words are waiting for the first listener.
    const events: DecodeEvent[] = [];
    client.subscribe((event) => events.push(event));
    await Promise.resolve();
    const started = events.filter((event) => event.type === 'started');
    expect(started.map((event) => event.type === 'started' && event.fileName)).toEqual([
      'a.pickle',
      'b.pickle',
    ]);
  });

  it('settles when the server cannot say what it serves, and the page says why', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('nope', { status: 500 })));
    const client = createWebSnapshotClient(
      { href: PAGE, protocol: 'http:' } as Location,
      servedPage(),
    );
    await expect(client.pageFilesHandedOver).resolves.toBeUndefined();
    const events: DecodeEvent[] = [];
    client.subscribe((event) => events.push(event));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'failed',
        fileName: 'allocscope serve',
        message: 'allocscope serve answered 500 for its list of files',
      }),
    ]);
  });
});

describe('createWebSnapshotClient on a page that is not served', () => {
  it('has nothing to wait for and asks for nothing', () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      asked.push(url);
      return Promise.resolve(new Response('{}'));
    });
    const page = {
      querySelector: () => null,
      querySelectorAll: () => [],
      getElementById: () => null,
    } as unknown as Document;
    const client = createWebSnapshotClient({ href: PAGE, protocol: 'http:' } as Location, page);
    expect(client.pageFilesHandedOver).toBeUndefined();
    expect(asked).toEqual([]);
  });
});

describe('?jobs= in the address', () => {
  it('gives the threads a picked file decodes on, as --jobs does, within 1-16', () => {
    const threads = (search: string) => requestedDecodeThreads({ search });
    expect(threads('?jobs=3')).toBe(3);
    expect(threads('?x=1&jobs=1')).toBe(1);
    expect(threads(`?jobs=${MAX_PAGE_DECODE_THREADS}`)).toBe(MAX_PAGE_DECODE_THREADS);
    for (const search of [
      '',
      '?jobs=',
      '?jobs=0',
      '?jobs=17',
      '?jobs=2.5',
      '?jobs=-2',
      '?jobs=1e1',
    ])
      expect(threads(search), search).toBeNull();
  });
});
