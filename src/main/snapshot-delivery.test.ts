import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebContents } from 'electron';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IpcChannel } from '../preload/ipc-channels';
import { createSnapshotDelivery } from './snapshot-delivery';

/** Just enough of WebContents for the delivery: events, send and isDestroyed. */
function fakeContents(): WebContents & { sent: unknown[][] } {
  const emitter = new EventEmitter();
  const sent: unknown[][] = [];
  return Object.assign(emitter, {
    sent,
    send: (...args: unknown[]) => void sent.push(args),
    isDestroyed: () => false,
  }) as unknown as WebContents & { sent: unknown[][] };
}

describe('createSnapshotDelivery', () => {
  let directory = '';
  let snapshotPath = '';

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'allocscope-delivery-'));
    snapshotPath = join(directory, 'run.pickle');
    await writeFile(snapshotPath, Buffer.alloc(1234));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('holds a file until the page is ready, then sends name and size only', async () => {
    const delivery = createSnapshotDelivery();
    const contents = fakeContents();
    delivery.attach(contents);
    await delivery.deliver(snapshotPath);
    expect(contents.sent).toEqual([]);

    delivery.markRendererReady(contents);
    expect(contents.sent).toEqual([
      [IpcChannel.snapshotOpened, { fileName: 'run.pickle', sizeBytes: 1234 }],
    ]);
  });

  it('waits again after the page reloads', async () => {
    const delivery = createSnapshotDelivery();
    const contents = fakeContents();
    delivery.attach(contents);
    delivery.markRendererReady(contents);
    contents.emit('did-start-loading');
    await delivery.deliver(snapshotPath);
    expect(contents.sent).toEqual([]);
    delivery.markRendererReady(contents);
    expect(contents.sent).toHaveLength(1);
  });

  it('ignores ready signals from other pages and files that cannot be read', async () => {
    const delivery = createSnapshotDelivery();
    const contents = fakeContents();
    delivery.attach(contents);
    delivery.markRendererReady(fakeContents());
    await delivery.deliver(snapshotPath);
    expect(contents.sent).toEqual([]);

    const errors: unknown[] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      delivery.markRendererReady(contents);
      await delivery.deliver(join(directory, 'missing.pickle'));
    } finally {
      console.error = originalError;
    }
    expect(contents.sent).toHaveLength(1);
    expect(errors).toHaveLength(1);
  });
});
