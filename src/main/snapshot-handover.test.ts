import { EventEmitter } from 'node:events';
import type { WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { IpcChannel } from '../preload/ipc-channels';
import { createHandoverService } from './snapshot-handover';
import { createSnapshotTokenTable } from './snapshot-tokens';
import { tokenOfSnapshotUrl } from './snapshot-url';

type FakeContents = WebContents & { sent: [string, unknown][]; destroyed: boolean };

/** Just enough of WebContents for the service: an id, events, send and isDestroyed. */
function fakeContents(id = 1): FakeContents {
  const emitter = new EventEmitter();
  const sent: [string, unknown][] = [];
  const contents = Object.assign(emitter, {
    id,
    sent,
    destroyed: false,
    send: (channel: string, payload: unknown) => void sent.push([channel, payload]),
    isDestroyed: () => contents.destroyed,
  });
  return contents as unknown as FakeContents;
}

function setup() {
  const tokens = createSnapshotTokenTable();
  const decoded: string[] = [];
  const service = createHandoverService({ tokens, onDecoded: (path) => void decoded.push(path) });
  return { tokens, decoded, service };
}

/** The hand-overs sent, as { fileName, token }. */
function handovers(contents: FakeContents) {
  return contents.sent.map(([channel, payload]) => {
    expect(channel).toBe(IpcChannel.snapshotHandover);
    const { url, fileName } = payload as { url: string; fileName: string };
    return { url, fileName, token: tokenOfSnapshotUrl(url) };
  });
}

describe('createHandoverService', () => {
  it('holds files until the page is ready, then hands each over as a URL with its own token', () => {
    const { tokens, service } = setup();
    const contents = fakeContents();
    service.attach(contents);
    service.open('/data/run.pickle');
    service.open('/data/demo-snapshot.pickle', { fileName: 'demo.pickle' });
    expect(contents.sent).toEqual([]);

    service.markRendererReady(contents);
    const [run, demo] = handovers(contents);
    expect(run!.fileName).toBe('run.pickle');
    expect(demo!.fileName).toBe('demo.pickle');
    expect(run!.token).not.toBeNull();
    expect(run!.token).not.toBe(demo!.token);
    // The path stays in main: the page gets a URL and a name.
    expect(JSON.stringify(contents.sent)).not.toContain('/data/');
    expect(tokens.redeem(run!.token!)).toEqual({
      path: '/data/run.pickle',
      fileName: 'run.pickle',
    });
    expect(tokens.redeem(demo!.token!)).toEqual({
      path: '/data/demo-snapshot.pickle',
      fileName: 'demo.pickle',
    });
  });

  it('hands over at once when the page is ready', () => {
    const { service } = setup();
    const contents = fakeContents();
    service.attach(contents);
    service.markRendererReady(contents);
    service.open('/data/run.pickle');
    expect(handovers(contents).map((handover) => handover.fileName)).toEqual(['run.pickle']);
  });

  it('adds a file to the recent ones only when the page says it decoded', () => {
    const { tokens, decoded, service } = setup();
    const contents = fakeContents();
    service.attach(contents);
    service.markRendererReady(contents);
    for (const name of ['a', 'b', 'c']) service.open(`/data/${name}.pickle`);
    const [a, b, c] = handovers(contents);
    service.settle(contents, a!.url, 'failed');
    service.settle(contents, b!.url, 'cancelled');
    service.settle(contents, c!.url, 'decoded');
    service.settle(contents, c!.url, 'decoded'); // twice: the token is gone
    expect(decoded).toEqual(['/data/c.pickle']);
    expect(tokens.size).toBe(0);
  });

  it("ignores a settle for another page's token, or for no token at all", () => {
    const { tokens, decoded, service } = setup();
    const contents = fakeContents(1);
    service.attach(contents);
    service.markRendererReady(contents);
    service.open('/data/a.pickle');
    const [a] = handovers(contents);
    service.settle(fakeContents(2), a!.url, 'decoded');
    service.settle(contents, 'allocscope-file://snapshot/nope', 'decoded');
    expect(decoded).toEqual([]);
    expect(tokens.size).toBe(1);
  });

  it('a reload revokes the tokens handed to the old page and waits for the new one', () => {
    const { tokens, service } = setup();
    const contents = fakeContents();
    service.attach(contents);
    service.markRendererReady(contents);
    service.open('/data/a.pickle');
    const [a] = handovers(contents);
    contents.emit('did-start-loading');
    expect(tokens.redeem(a!.token!)).toBeNull();

    service.open('/data/b.pickle');
    expect(contents.sent).toHaveLength(1);
    service.markRendererReady(fakeContents(2)); // another page: ignored
    expect(contents.sent).toHaveLength(1);
    service.markRendererReady(contents);
    expect(handovers(contents).map((handover) => handover.fileName)).toEqual([
      'a.pickle',
      'b.pickle',
    ]);
  });

  it('a closed window revokes its tokens, and files wait for the next window', () => {
    const { tokens, service } = setup();
    const first = fakeContents(1);
    service.attach(first);
    service.markRendererReady(first);
    service.open('/data/a.pickle');
    first.destroyed = true;
    first.emit('destroyed');
    expect(tokens.size).toBe(0);

    service.open('/data/b.pickle');
    const second = fakeContents(2);
    service.attach(second);
    service.markRendererReady(second);
    expect(handovers(second).map((handover) => handover.fileName)).toEqual(['b.pickle']);
  });

  it('shows a name for any path', () => {
    const { service } = setup();
    const contents = fakeContents();
    service.attach(contents);
    service.markRendererReady(contents);
    service.open('/');
    service.open('/data/run.pickle/');
    expect(handovers(contents).map((handover) => handover.fileName)).toEqual(['/', 'run.pickle']);
  });
});
