/// <reference lib="dom" />
// How the e2e seams reach the page's decode worker without a test-only path in the app: an init
// script wraps URL.createObjectURL so that every inline (blob:) worker script the page makes
// starts with `prelude`, which runs in the worker's global scope before the worker's own code.

import type { Page } from '@playwright/test';

/** Call before navigating. */
export async function prependToPageWorkers(page: Page, prelude: string): Promise<void> {
  await page.addInitScript((code: string) => {
    const createObjectURL = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (object: Blob | MediaSource) =>
      object instanceof Blob && object.type.startsWith('text/javascript')
        ? createObjectURL(new Blob([code, object], { type: object.type }))
        : createObjectURL(object);
  }, prelude);
}
