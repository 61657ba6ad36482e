/// <reference lib="dom" />
// A way to make the page's real decoder hit a bug, without a test-only path in the app: the decode
// worker's script starts with a few lines (./worker-prelude.ts) that sabotage Blob.prototype.stream
// for files of two names. Every other
// file decodes as usual, so a good snapshot can be open in the same page.

import type { Page } from '@playwright/test';
import { prependToPageWorkers } from './worker-prelude';

/** Its decode throws a plain TypeError inside the worker, which the decoder catches and reports. */
export const THROWS_TYPE_ERROR = 'throws-a-type-error.pickle';
/** Its decode throws where nothing catches it: the worker dies (worker.onerror in the page). */
export const CRASHES_THE_WORKER = 'crashes-the-worker.pickle';

/** Call before navigating. */
export async function sabotageDecoderFor(page: Page): Promise<void> {
  const throwsName = JSON.stringify(THROWS_TYPE_ERROR);
  const crashesName = JSON.stringify(CRASHES_THE_WORKER);
  await prependToPageWorkers(
    page,
    `(() => {
      const stream = Blob.prototype.stream;
      Blob.prototype.stream = function () {
        if (this instanceof File && this.name === ${throwsName}) {
          throw new TypeError('sabotaged by decoder-bug-seam.ts: ' + this.name);
        }
        if (this instanceof File && this.name === ${crashesName}) {
          setTimeout(() => {
            throw new TypeError('sabotaged by decoder-bug-seam.ts: ' + this.name);
          });
          return new ReadableStream(); // never ends: only the crash answers
        }
        return stream.call(this);
      };
    })();\n`,
  );
}
