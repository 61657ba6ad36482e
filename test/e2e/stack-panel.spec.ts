// The allocation panel opens on the answer: for the largest allocation (with a stack) of each
// real snapshot, clicked in the largest-allocations table at 1280×720 and 1920×1080, the frame the
// stack's label names is in view inside the panel without scrolling, and its text is that label.
// Where the stack holds the user's own code, the expected frame is found here from the file by
// path alone (a Python file outside the Python installation, PyTorch and torch.compile's output).

import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { stackLabelOfStack } from '../../src/shared/analysis/user-frame';
import { frameAt, stackFrameIds } from '../../src/shared/snapshot/stack-source';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import { makeNewestSnapshot } from '../../generators/snapshot/newest-fields-snapshot';
import { realSnapshotPaths } from '../support/real-snapshots';
import { writtenByTheUser } from '../support/user-code';
import { decodeFile, openSnapshot } from './snapshot-pages';
import { watchPageProblems } from './page-problems';

/** `inner` lies wholly inside `outer` (both in view now). */
async function expectInside(inner: Locator, outer: Locator, what: string): Promise<void> {
  const a = (await inner.boundingBox())!;
  const b = (await outer.boundingBox())!;
  expect(a, what).not.toBeNull();
  expect(a.y, `${what}: top`).toBeGreaterThanOrEqual(b.y - 0.5);
  expect(a.y + a.height, `${what}: bottom`).toBeLessThanOrEqual(b.y + b.height + 0.5);
  expect(a.x, `${what}: left`).toBeGreaterThanOrEqual(b.x - 0.5);
  expect(a.x + a.width, `${what}: right`).toBeLessThanOrEqual(b.x + b.width + 0.5);
}

const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    for (const path of realSnapshotPaths()) {
      const name = basename(path);
      test(`${name}: the panel opens on the stack's label`, async ({ page }, testInfo) => {
        const { snapshot } = await decodeFile(path);
        const problems = await watchPageProblems(page);
        await openSnapshot(page, path);

        // The device the page shows, and its largest allocations (the OOM tab may come first).
        const ordinal = Number(await page.getByTestId('device-select').inputValue());
        const device = snapshot.devices.find((candidate) => candidate.device === ordinal);
        test.skip(device === undefined || device.allocations.count === 0, 'no allocations');
        const tab = page.getByTestId('view-tab-largest');
        if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
        const rows = page.getByTestId('largest-row');
        const count = await rows.count();
        let chosen: { row: number; stackId: number } | null = null;
        for (let i = 0; i < count && chosen === null; i++) {
          const row = Number(await rows.nth(i).getAttribute('data-row'));
          const stackId = device!.allocations.stackId[row]!;
          if (stackFrameIds(snapshot, stackId).length > 0) chosen = { row, stackId };
        }
        test.skip(chosen === null, 'no allocation alive then has a stack');
        const { row, stackId } = chosen!;
        // Selected as a click does (the table may be scrolled short at 1280×720).
        await page.locator(`[data-testid="largest-row"][data-row="${row}"]`).dispatchEvent('click');

        const panel = page.getByTestId('allocation-panel');
        await expect(panel).toHaveAttribute('data-row', String(row));
        const scroller = panel.getByTestId('stack-scroll');
        const labelled = panel.locator('[data-testid="stack-frame"][data-role="label"]');
        await expect(labelled).toHaveCount(1);
        // In view inside the panel's stack, with nothing scrolled by hand; the panel in the window.
        await expectInside(labelled, scroller, 'the labelled frame in the stack');
        await expectInside(panel, page.locator('body'), 'the panel in the window');

        const frames = Array.from(stackFrameIds(snapshot, stackId), (id) =>
          frameAt(snapshot.frames, id),
        );
        const userIndex = frames.findIndex(writtenByTheUser);
        const text = labelled.getByTestId('stack-frame-text');
        const label = panel.getByTestId('stack-label');
        if (userIndex >= 0) {
          // The innermost frame of the user's code: "dir/file.py:line name".
          const frame = frames[userIndex]!;
          const expected = `${frame.filename.split('/').slice(-2).join('/')}:${frame.line} ${frame.name}`;
          await expect(labelled).toHaveAttribute('data-frame-index', String(userIndex));
          await expect(text).toHaveText(expected);
          await expect(label).toHaveText(expected);
          await expect(label).toHaveAttribute('data-kind', 'user');
        } else {
          // No user code: the shared rule's label, naming no frame of the capture or the allocator.
          const expected = stackLabelOfStack(snapshot, stackId)!;
          await expect(label).toHaveText(expected.text);
          await expect(label).not.toHaveAttribute('data-kind', 'user');
          expect(frames[expected.index]!.name).not.toMatch(/^(torch::unwind|c10::cuda::)/);
        }
        // Its file:line is selectable text; the frame's copy button is there.
        if (userIndex >= 0) {
          const location = labelled.getByTestId('stack-frame-location');
          await expect(location).toHaveCSS('user-select', 'text');
          await expect(labelled.getByTestId('copy-frame')).toBeVisible();
        }
        await panel.screenshot({ path: testInfo.outputPath(`panel-${viewport.width}.png`) });
        expect(await problems()).toEqual([]);
      });
    }
  });
}

test('the framework toggle is remembered and frames copy one by one', async ({ page, context }) => {
  const path = realSnapshotPaths().find((candidate) => basename(candidate).startsWith('cherryni'))!;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openSnapshot(page, path);
  await page.getByTestId('largest-row').first().dispatchEvent('click');
  const panel = page.getByTestId('allocation-panel');
  const frames = panel.getByTestId('stack-frame');
  const folded = await frames.count();
  expect(await panel.getByTestId('stack-fold').count()).toBeGreaterThan(0);

  // One fold opens on its own.
  await panel.getByTestId('stack-fold').first().click();
  expect(await frames.count()).toBeGreaterThan(folded);

  await panel.getByTestId('show-framework').check();
  await expect(panel.getByTestId('stack-fold')).toHaveCount(0);
  const all = await frames.count();

  // Copy one frame: "path:line name", as the row's tooltip shows it whole.
  const labelled = panel.locator('[data-testid="stack-frame"][data-role="label"]');
  await labelled.hover();
  await labelled.getByTestId('copy-frame').click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await labelled.getAttribute('title'));
  expect(copied.split('\n')).toHaveLength(1);

  // Remembered: the next page shows framework frames too.
  await openSnapshot(page, path);
  await page.getByTestId('largest-row').first().dispatchEvent('click');
  await expect(page.getByTestId('show-framework')).toBeChecked();
  const reopened = page.getByTestId('allocation-panel');
  await expect(reopened.getByTestId('stack-frame')).toHaveCount(all);
  // Every frame listed, and still opened on the labelled frame.
  await expectInside(
    reopened.locator('[data-testid="stack-frame"][data-role="label"]'),
    reopened.getByTestId('stack-scroll'),
    'the labelled frame among all frames',
  );
});

test('the newest fields of an allocation are listed in the panel', async ({ page }, testInfo) => {
  // A generated snapshot with every newest field (no real file has them), written by the
  // project's pickle writer; what was planted on each allocation is known.
  const snapshot = makeNewestSnapshot({ unknownExtras: false, hostMemory: false });
  const path = testInfo.outputPath('newest-fields.pickle');
  writeFileSync(path, dumpToBytes(snapshot.value));
  await openSnapshot(page, path);
  const ordinal = Number(await page.getByTestId('device-select').inputValue());
  const tab = page.getByTestId('view-tab-largest');
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  const rows = page.getByTestId('largest-row');
  const panel = page.getByTestId('allocation-panel');
  const seen = { metadata: 0, forward: 0, category: 0 };
  for (let i = 0; i < (await rows.count()); i++) {
    await rows.nth(i).dispatchEvent('click');
    await expect(panel).toHaveAttribute('data-row', (await rows.nth(i).getAttribute('data-row'))!);
    const address = (await panel.getByTestId('allocation-address').textContent())!.trim();
    // An address the allocator reused names several allocations: only the unambiguous ones.
    const matches = snapshot.planted.allocations.filter(
      (candidate) => candidate.device === ordinal && candidate.addr === Number(address),
    );
    if (matches.length !== 1) continue;
    const planted = matches[0]!;
    if (planted.userMetadata !== null) {
      let expected = planted.userMetadata;
      try {
        const parsed: unknown = JSON.parse(expected);
        if (parsed !== null && typeof parsed === 'object')
          expected = JSON.stringify(parsed, null, 2);
      } catch {
        // Not JSON: shown as written.
      }
      await expect(
        panel.getByTestId('detail-user-metadata').locator('dd > :first-child'),
      ).toHaveText(expected, { useInnerText: true });
      seen.metadata++;
    }
    if (planted.category !== null) {
      await expect(panel.getByTestId('detail-category').locator('dd')).toHaveText(planted.category);
      seen.category++;
    }
    if (planted.forwardFrames.length > 0) {
      await expect(panel.getByTestId('forward-frame')).toHaveText([...planted.forwardFrames]);
      seen.forward++;
    }
  }
  expect(seen.metadata).toBeGreaterThan(0);
  expect(seen.category).toBeGreaterThan(0);
  expect(seen.forward).toBeGreaterThan(0);
});
