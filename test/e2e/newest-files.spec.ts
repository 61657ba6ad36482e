// The newest snapshots in the app: the JSON form (plain and gzipped) opens with the figures of the
// same snapshot pickled, and pinned host memory is a device of its own. Expectations come from the
// generator's planted figures and from the pickle form, never from the page itself.

import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import { snapshotToJson } from '../../generators/snapshot/json-form';
import { makeNewestSnapshot } from '../../generators/snapshot/newest-fields-snapshot';
import { HOST_DEVICE } from '../../src/shared/snapshot/model';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';
import { openSnapshot } from './snapshot-pages';

test.beforeAll(() => {
  assertChromiumInstalled();
});

const FIGURES = [
  'summary-reserved-peak',
  'summary-reserved-final',
  'summary-active-peak',
  'summary-active-final',
  'summary-segments',
  'summary-events',
  'summary-ooms',
] as const;

/** Each headline figure of every device, exactly (bytes from the figure's title, counts as shown). */
async function figuresOfEveryDevice(page: Page): Promise<Record<string, string[]>> {
  const select = page.getByTestId('device-select');
  const devices = await select
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  const figures: Record<string, string[]> = {};
  for (const device of devices) {
    await select.selectOption(device);
    figures[device] = await Promise.all(
      FIGURES.map(async (id) => {
        const figure = page.getByTestId(id);
        return (await figure.getAttribute('title')) ?? (await figure.textContent()) ?? '';
      }),
    );
  }
  return figures;
}

test('the JSON form, plain and gzipped, opens with the figures of the pickle', async ({
  page,
}, testInfo) => {
  const problems = await watchPageProblems(page);
  const snapshot = makeNewestSnapshot({ seed: 7 });
  const pickled = testInfo.outputPath('newest.pickle');
  const json = testInfo.outputPath('newest.json');
  const gzipped = testInfo.outputPath('newest.json.gz');
  writeFileSync(pickled, dumpToBytes(snapshot.value));
  writeFileSync(json, snapshotToJson(snapshot.value));
  writeFileSync(gzipped, gzipSync(snapshotToJson(snapshot.value)));

  await openSnapshot(page, pickled);
  const expected = await figuresOfEveryDevice(page);
  expect(Object.keys(expected).length).toBeGreaterThan(1);
  await expect(page.locator('.status-bar')).toContainText('pickle protocol 4');
  for (const path of [json, gzipped]) {
    await openSnapshot(page, path);
    expect(await figuresOfEveryDevice(page), path).toEqual(expected);
    // The JSON form has no pickle protocol, and the page does not make one up.
    await expect(page.locator('.status-bar')).toContainText('JSON form');
    await expect(page.locator('.status-bar')).not.toContainText('pickle protocol');
  }
  expect(await problems()).toEqual([]);
});

test('pinned host memory is a device of its own, with its planted figures', async ({
  page,
}, testInfo) => {
  const problems = await watchPageProblems(page);
  const snapshot = makeNewestSnapshot({ seed: 11 });
  const host = snapshot.planted.host!;
  const path = testInfo.outputPath('with-host.pickle');
  writeFileSync(path, dumpToBytes(snapshot.value));
  await openSnapshot(page, path);
  const select = page.getByTestId('device-select');
  // Opens on a CUDA device; the host is listed after them.
  expect(Number(await select.inputValue())).toBeGreaterThanOrEqual(0);
  const options = select.locator('option');
  await expect(options.last()).toHaveAttribute('value', String(HOST_DEVICE));
  await expect(options.last()).toContainText('host (pinned)');
  await select.selectOption(String(HOST_DEVICE));
  await expect(page.getByTestId('summary-reserved-final')).toHaveAttribute(
    'title',
    `${host.reservedBytes.toLocaleString('en-US')} bytes`,
  );
  await expect(page.getByTestId('summary-events')).toHaveAttribute(
    'data-count',
    String(host.traceEntries),
  );
  await expect(page.getByTestId('timeline-canvas')).toBeVisible();
  expect(await problems()).toEqual([]);
});
