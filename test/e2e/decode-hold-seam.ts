/// <reference lib="dom" />
// A way to see the page while a file is still decoding, without a test-only path in the app: as
// decoder-bug-seam.ts does, an init script puts a few lines before the decode worker's script (an
// inline blob: worker), here wrapping Blob.prototype.stream for files of one name: such a file
// arrives in chunks of 64 KiB, 40 ms apart (so that the worker reports its progress several
// times), and stops at a share of its bytes until the test releases it. Every other file reads as
// usual.

import type { Page } from '@playwright/test';

/** Read as usual up to HELD_FRACTION of its bytes, then held until releaseHeldDecode(). */
export const HELD_FILE_NAME = 'held-while-decoding.pickle';
export const HELD_FRACTION = 0.6;
const CHANNEL = 'allocscope-test-decode-hold';

/** Call before navigating. */
export async function holdDecodesFor(page: Page): Promise<void> {
  await page.addInitScript(
    ({ name, fraction, channelName }) => {
      const prelude = `(() => {
        const stream = Blob.prototype.stream;
        Blob.prototype.stream = function () {
          if (!(this instanceof File && this.name === ${JSON.stringify(name)})) return stream.call(this);
          const file = this;
          const holdAt = Math.floor(file.size * ${fraction});
          const released = new Promise((resolve) => {
            const channel = new BroadcastChannel(${JSON.stringify(channelName)});
            channel.onmessage = () => { channel.close(); resolve(); };
          });
          let offset = 0;
          let held = false;
          return new ReadableStream({
            async pull(controller) {
              if (offset >= file.size) { controller.close(); return; }
              if (offset >= holdAt && !held) { held = true; await released; }
              await new Promise((resolve) => setTimeout(resolve, 40));
              const end = Math.min(file.size, offset + 65536, offset < holdAt ? holdAt : Infinity);
              controller.enqueue(new Uint8Array(await file.slice(offset, end).arrayBuffer()));
              offset = end;
            },
          });
        };
      })();\n`;
      const createObjectURL = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (object: Blob | MediaSource) =>
        object instanceof Blob && object.type.startsWith('text/javascript')
          ? createObjectURL(new Blob([prelude, object], { type: object.type }))
          : createObjectURL(object);
    },
    { name: HELD_FILE_NAME, fraction: HELD_FRACTION, channelName: CHANNEL },
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
