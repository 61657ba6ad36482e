/// <reference lib="dom" />
// A way to make the page's real decoder hit a bug, without a test-only path in the app: an init
// script wraps URL.createObjectURL so that the decode worker's script (an inline blob: worker)
// starts with a few lines that sabotage Blob.prototype.stream for files of two names. Every other
// file decodes as usual, so a good snapshot can be open in the same page.

import type { Page } from '@playwright/test';

/** Its decode throws a plain TypeError inside the worker, which the decoder catches and reports. */
export const THROWS_TYPE_ERROR = 'throws-a-type-error.pickle';
/** Its decode throws where nothing catches it: the worker dies (worker.onerror in the page). */
export const CRASHES_THE_WORKER = 'crashes-the-worker.pickle';

/** Call before navigating. */
export async function sabotageDecoderFor(page: Page): Promise<void> {
  await page.addInitScript(
    ({ throwsName, crashesName }) => {
      // Runs first in the worker's global scope, before the decoder's own code.
      const prelude = `(() => {
        const stream = Blob.prototype.stream;
        Blob.prototype.stream = function () {
          if (this instanceof File && this.name === ${JSON.stringify(throwsName)}) {
            throw new TypeError('sabotaged by decoder-bug-seam.ts: ' + this.name);
          }
          if (this instanceof File && this.name === ${JSON.stringify(crashesName)}) {
            setTimeout(() => {
              throw new TypeError('sabotaged by decoder-bug-seam.ts: ' + this.name);
            });
            return new ReadableStream(); // never ends: only the crash answers
          }
          return stream.call(this);
        };
      })();\n`;
      const createObjectURL = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (object: Blob | MediaSource) =>
        object instanceof Blob && object.type.startsWith('text/javascript')
          ? createObjectURL(new Blob([prelude, object], { type: object.type }))
          : createObjectURL(object);
    },
    { throwsName: THROWS_TYPE_ERROR, crashesName: CRASHES_THE_WORKER },
  );
}
