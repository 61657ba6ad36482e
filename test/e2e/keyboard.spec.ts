/// <reference lib="dom" />
// One keyboard scheme (src/renderer/state/keyboard-shortcuts.ts): `?` lists every shortcut and the
// glossary; ← → step the selected moment wherever the focus is (the timeline included), the
// timeline zooms and pans with its own keys and follows the moment; 1-4 pick the view below;
// nothing fires while a field has the keys. Expectations come from decoding the same files here.

import { expect, test, type Page } from '@playwright/test';
import { GLOSSARY } from '../../src/shared/format/glossary';
import { clampMoment, firstOomEvent } from '../../src/shared/analyzed/moments';
import { bigStep } from '../../src/renderer/moment/moment';
import { SHORTCUTS } from '../../src/renderer/state/keyboard-shortcuts';
import { realSnapshotPath } from '../support/real-snapshots';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';
import { decodeFile, openSnapshot } from './snapshot-pages';

test.beforeAll(() => {
  assertChromiumInstalled();
});

/** 18k trace entries, times: room to step, zoom and pan. */
const LONG = realSnapshotPath('LINYUNLinYun');
/** Three devices, an OOM on device 1 (opens there). */
const MULTI_GPU = realSnapshotPath('Constructor-Sun');

function parseDomain(text: string | null): [number, number] {
  const [start, end] = (text ?? '').split(',').map(Number);
  return [start!, end!];
}

async function domainOf(page: Page): Promise<[number, number]> {
  return parseDomain(await page.getByTestId('timeline').getAttribute('data-x-domain'));
}

async function momentOf(page: Page): Promise<number> {
  return Number(await page.getByTestId('moment-label').getAttribute('data-moment'));
}

test('? opens the help: every shortcut of the table and the glossary; Esc closes it', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = await watchPageProblems(page);
  await openSnapshot(page, MULTI_GPU);
  const moment = await momentOf(page);

  await page.keyboard.press('?');
  const help = page.getByTestId('keyboard-help');
  await expect(help).toBeVisible();
  const rows = help.getByTestId('shortcut');
  // The table's shortcuts and, first in the Views group, one per lower view (their registry's).
  const views = ['largest', 'segments', 'fragmentation', 'oom', 'holders', 'steps', 'compare'];
  await expect(rows).toHaveCount(SHORTCUTS.length + views.length);
  const commands = await rows.evaluateAll((elements) =>
    elements.map((row) => row.dataset['command']),
  );
  expect(commands.filter((command) => !command!.startsWith('view-'))).toEqual(
    SHORTCUTS.map((entry) => entry.command),
  );
  expect(commands.filter((command) => command!.startsWith('view-'))).toEqual(
    views.map((id) => `view-${id}`),
  );
  expect(commands.indexOf('view-largest')).toBe(
    SHORTCUTS.findIndex((entry) => entry.group === 'Views'),
  );
  for (const [i, id] of views.entries())
    await expect(help.locator(`[data-command="view-${id}"]`)).toContainText(String(i + 1));
  for (const entry of SHORTCUTS)
    await expect(help.locator(`[data-command="${entry.command}"]`)).toContainText(
      entry.description,
    );
  const glossary = help.getByTestId('glossary-entry');
  await expect(glossary).toHaveCount(GLOSSARY.length);
  await expect(glossary.filter({ hasText: /^active/ }).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('keyboard-help.png') });

  // Keys inside the help do not reach the page.
  await page.keyboard.press('ArrowRight');
  expect(await momentOf(page)).toBe(moment);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  // The header's button opens it too.
  await page.getByTestId('keyboard-help-open').click();
  await expect(help).toBeVisible();
  await help.getByTestId('keyboard-help-close').click();
  await expect(help).toHaveCount(0);
  expect(await problems()).toEqual([]);
});

test('after a click on the timeline, ← → step the moment and the view stays', async ({ page }) => {
  const { snapshot } = await decodeFile(LONG);
  const device = snapshot.devices[0]!;
  await openSnapshot(page, LONG);
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-drawn', /^[1-9]/);
  const full = await domainOf(page);

  // Empty space above the curves: a moment, not an allocation.
  await page.getByTestId('timeline-canvas').click({ position: { x: 200, y: 4 } });
  const clicked = await momentOf(page);
  expect(clicked).toBeGreaterThan(0);
  expect(clicked).toBeLessThan(device.traceLength - 1);
  const label = page.getByTestId('moment-label');

  await page.keyboard.press('ArrowRight');
  await expect(label).toHaveAttribute('data-moment', String(clicked + 1));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(label).toHaveAttribute('data-moment', String(clicked - 1));
  await page.keyboard.press('Shift+ArrowRight');
  await expect(label).toHaveAttribute('data-moment', String(clicked - 1 + bigStep(device)));
  // The arrows moved the moment, not the view.
  expect(await domainOf(page)).toEqual(full);

  await page.keyboard.press('End');
  await expect(label).toHaveAttribute('data-moment', String(device.traceLength - 1));
  await page.keyboard.press('Home');
  await expect(label).toHaveAttribute('data-moment', '-1');
  await page.keyboard.press('p');
  await expect(label).toHaveAttribute(
    'data-moment',
    String(clampMoment(device, device.figures.active.peakEventIndex)),
  );
  await expect(page.getByTestId('moment-peak')).toHaveAttribute('aria-pressed', 'true');
});

test('the timeline zooms and pans with its keys and follows the moment', async ({ page }) => {
  const { snapshot } = await decodeFile(LONG);
  const device = snapshot.devices[0]!;
  await openSnapshot(page, LONG);
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-drawn', /^[1-9]/);
  // Event indices on x: the moment's place on the axis is its index.
  await page.getByTestId('x-mode').getByRole('radio', { name: 'Event #' }).click();
  await expect(timeline).toHaveAttribute('data-x-mode', 'event');
  const full = await domainOf(page);
  await page.getByTestId('timeline-canvas').click({ position: { x: 200, y: 4 } });

  // W zooms in about the centre, + too; S and - zoom out.
  await page.keyboard.press('w');
  await expect.poll(async () => (await domainOf(page))[0]).toBeGreaterThan(full[0]);
  const zoomed = await domainOf(page);
  expect(zoomed[1]).toBeLessThan(full[1]);
  await page.keyboard.press('+');
  await expect
    .poll(async () => {
      const [start, end] = await domainOf(page);
      return end - start;
    })
    .toBeLessThan(zoomed[1] - zoomed[0]);
  await page.keyboard.press('s');
  await expect.poll(() => domainOf(page)).toEqual(zoomed);

  // D pans later, A earlier, Ctrl+← earlier again.
  await page.keyboard.press('d');
  await expect.poll(async () => (await domainOf(page))[0]).toBeGreaterThan(zoomed[0]);
  const later = await domainOf(page);
  await page.keyboard.press('a');
  await expect.poll(async () => (await domainOf(page))[0]).toBeLessThan(later[0]);
  const back = await domainOf(page);
  await page.keyboard.press('Control+ArrowLeft');
  await expect.poll(async () => (await domainOf(page))[0]).toBeLessThan(back[0]);

  // End puts the moment past the view: the view follows, at the same zoom.
  const [start, end] = await domainOf(page);
  expect(end).toBeLessThan(device.traceLength - 1);
  await page.keyboard.press('End');
  await expect(page.getByTestId('moment-label')).toHaveAttribute(
    'data-moment',
    String(device.traceLength - 1),
  );
  await expect.poll(async () => (await domainOf(page))[1]).toBeGreaterThan(device.traceLength - 1);
  const followed = await domainOf(page);
  expect(followed[1] - followed[0]).toBeCloseTo(end - start, 3);

  // 0 shows everything again; Esc does too when nothing is selected.
  await page.keyboard.press('0');
  await expect.poll(() => domainOf(page)).toEqual(full);
  await page.keyboard.press('w');
  await expect.poll(async () => (await domainOf(page))[0]).toBeGreaterThan(full[0]);
  await page.keyboard.press('Escape');
  await expect.poll(() => domainOf(page)).toEqual(full);
});

test('1-4 pick the view below, O goes to the OOM; no key fires from a field', async ({ page }) => {
  const { snapshot } = await decodeFile(MULTI_GPU);
  await openSnapshot(page, MULTI_GPU);
  const device = snapshot.devices.find((candidate) => candidate.ooms.length > 0)!;
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-device', String(device.device));

  for (const [key, id] of [
    ['1', 'largest'],
    ['2', 'segments'],
    ['3', 'fragmentation'],
    ['4', 'oom'],
  ] as const) {
    await page.keyboard.press(key);
    await expect(page.getByTestId(`view-tab-${id}`)).toHaveAttribute('aria-selected', 'true');
  }

  await page.keyboard.press('Home');
  await expect(page.getByTestId('moment-label')).toHaveAttribute('data-moment', '-1');
  await page.keyboard.press('o');
  await expect(page.getByTestId('moment-label')).toHaveAttribute(
    'data-moment',
    String(firstOomEvent(device)),
  );

  // The device picker has the focus: its keys are its own.
  const domain = await domainOf(page);
  await page.locator('.device-select select').focus();
  await page.keyboard.press('2');
  await page.keyboard.press('w');
  await expect(page.getByTestId('view-tab-oom')).toHaveAttribute('aria-selected', 'true');
  expect(await domainOf(page)).toEqual(domain);
});
