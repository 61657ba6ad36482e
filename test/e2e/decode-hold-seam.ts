/// <reference lib="dom" />
// A way to see the page while a file is still decoding, without a test-only path in the app: a few
// lines before the decode worker's script (./worker-prelude.ts) wrap Blob.prototype.stream for
// files of one name: such a file arrives in chunks of 64 KiB, 100 ms apart (2.4 s to the hold for
// a 2.6 MB file: the worker sends its curves every 0.5 s, so the last ones before the hold hold
// most of the rows read), and stops at a share of its bytes until the test releases it. Every
// other file reads as usual.

import type { Page } from '@playwright/test';
import { prependToPageWorkers } from './worker-prelude';

/** Read as usual up to HELD_FRACTION of its bytes, then held until releaseHeldDecode(). */
export const HELD_FILE_NAME = 'held-while-decoding.pickle';
export const HELD_FRACTION = 0.6;
const CHANNEL = 'allocscope-test-decode-hold';

/** Call before navigating. */
export async function holdDecodesFor(page: Page): Promise<void> {
  const name = JSON.stringify(HELD_FILE_NAME);
  const channelName = JSON.stringify(CHANNEL);
  await prependToPageWorkers(
    page,
    `(() => {
      const stream = Blob.prototype.stream;
      Blob.prototype.stream = function () {
        if (!(this instanceof File && this.name === ${name})) return stream.call(this);
        const file = this;
        const holdAt = Math.floor(file.size * ${HELD_FRACTION});
        const released = new Promise((resolve) => {
          const channel = new BroadcastChannel(${channelName});
          channel.onmessage = () => { channel.close(); resolve(); };
        });
        let offset = 0;
        let held = false;
        return new ReadableStream({
          async pull(controller) {
            if (offset >= file.size) { controller.close(); return; }
            if (offset >= holdAt && !held) { held = true; await released; }
            await new Promise((resolve) => setTimeout(resolve, 100));
            const end = Math.min(file.size, offset + 65536, offset < holdAt ? holdAt : Infinity);
            controller.enqueue(new Uint8Array(await file.slice(offset, end).arrayBuffer()));
            offset = end;
          },
        });
      };
    })();\n`,
  );
}

/** Lets the held file read on. */
export async function releaseHeldDecode(page: Page): Promise<void> {
  await page.evaluate((channelName) => {
    const channel = new BroadcastChannel(channelName);
    channel.postMessage('release');
    channel.close();
  }, CHANNEL);
}
