/// <reference lib="dom" />
// A way to make one view of the page hit a bug, without a test-only path in the app: an init
// script wraps JSON.stringify so that it throws on one string, VIEW_BUG_KEY. The allocation panel
// writes the keys of an allocation's user metadata with it (format/shown-text.ts), so a file whose
// metadata holds that key (test/support/hostile-labels.ts viewBugSeamSnapshot) breaks the panel
// when that allocation is shown, and nothing else: every other string goes through as before.

import type { Page } from '@playwright/test';

/** The user-metadata key the allocation panel fails on. */
export const VIEW_BUG_KEY = 'sabotaged-by-view-bug-seam';

/** Call before navigating. */
export async function sabotageViewFor(page: Page): Promise<void> {
  await page.addInitScript((key) => {
    const stringify = JSON.stringify.bind(JSON);
    JSON.stringify = ((value: unknown, ...rest: unknown[]) => {
      if (value === key) throw new TypeError(`sabotaged by view-bug-seam.ts: ${key}`);
      return (stringify as (...args: unknown[]) => string)(value, ...rest);
    }) as typeof JSON.stringify;
  }, VIEW_BUG_KEY);
}
