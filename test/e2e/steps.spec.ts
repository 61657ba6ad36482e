// The Steps view (key 6) at 1280x720: on a generated training run with a planted leak (written
// here, the generator knows the truth) the verdict names the leak and its bytes per step, the
// first suspect is the leaking line, a click narrows the timeline and the Allocations table to
// what it kept, a step's row selects the moment at its end, and the timeline draws the step
// ruler; a real snapshot without steps says so.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import { findSteps } from '../../src/shared/steps/find-steps';
import { createEventAxis } from '../../src/shared/chart/event-axis';
import { deviceTimesUsable } from '../../src/shared/analyzed/device-times';
import { phasesOf } from '../../src/shared/steps/phases';
import { realSnapshotPath } from '../support/real-snapshots';
import { watchPageProblems } from './page-problems';
import { decodeFile, openSnapshot } from './snapshot-pages';

test.use({ viewport: { width: 1280, height: 720 } });

const LEAK = 96 * 2 ** 20;
// Made in beforeAll, not at import: with fullyParallel a worker can come back to this file after
// its afterAll removed the folder, and the module is not imported again.
let directory = '';
let leaking = '';
test.beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'allocscope-steps-e2e-'));
  leaking = join(directory, 'leaking-run.pickle');
  generateLargeSnapshot(leaking, 3_000_000, {
    seed: 4,
    devices: 1,
    leakBytesPerStep: LEAK,
    maxAnnotations: 100_000,
  });
});
test.afterAll(() => rmSync(directory, { recursive: true, force: true }));

test('the Steps view names the planted leak and shows what it kept', async ({ page }) => {
  const problems = await watchPageProblems(page);
  const { snapshot } = await decodeFile(leaking);
  const device = snapshot.devices[0]!;
  const found = findSteps(snapshot, device);
  expect(found.steps.length).toBeGreaterThanOrEqual(5);

  await openSnapshot(page, leaking);
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-steps', String(found.steps.length));
  await expect(timeline).toHaveAttribute('data-marks', /steps/);
  await page.keyboard.press('6');
  const steps = page.getByTestId('steps-view');
  await expect(steps).toHaveAttribute('data-source', 'annotations');
  await expect(page.getByTestId('steps-verdict')).toContainText(
    `Active memory grows 96.0 MiB per step over ${found.steps.length} steps; 96.0 MiB of it is allocated at nanogpt/train.py:88 train_step`,
  );
  await expect(page.getByTestId('steps-table').locator('tbody tr')).toHaveCount(found.steps.length);
  // Its own picture as PNG/SVG: a column per step and the verdict.
  await expect(page.getByTestId('export-what')).toHaveAttribute('data-view', 'steps');
  const started = page.waitForEvent('download');
  await page.getByTestId('export-svg').click();
  const download = await started;
  expect(download.suggestedFilename()).toBe('leaking-run.cuda0.steps.svg');
  const svg = await readFile(await download.path(), 'utf8');
  expect(svg).toContain('class="allocscope-steps"');
  expect(svg).toContain('Active memory grows 96.0 MiB per step');
  const columns = /data-mark="step-peaks" d="([^"]*)"/.exec(svg)![1]!.split('Z').filter(Boolean);
  expect(columns.length).toBe(found.steps.length);

  // The first suspect is the leak, with the planted bytes per step.
  const suspect = page.getByTestId('steps-suspects').locator('tbody tr').first();
  await expect(suspect).toHaveAttribute('data-key', 'nanogpt/train.py:88 train_step');
  expect(Math.abs(Number(await suspect.getAttribute('data-bytes-per-step')) - LEAK)).toBeLessThan(
    LEAK * 0.01,
  );
  await suspect.click();
  await expect(suspect).toHaveAttribute('aria-selected', 'true');
  await expect(timeline).toHaveAttribute('data-search-curve', 'drawn');
  await expect(timeline).not.toHaveAttribute('data-dimmed-bands', '0');
  await page.keyboard.press('1');
  await expect(page.getByTestId('largest-filter')).toContainText(
    'kept by nanogpt/train.py:88 train_step (Steps)',
  );
  await page.getByTestId('largest-filter').getByRole('button', { name: 'Show all' }).click();
  await expect(timeline).toHaveAttribute('data-search-curve', 'none');

  // A step's row: the moment at its end.
  await page.keyboard.press('6');
  const third = found.steps[2]!;
  await page.getByTestId('steps-table').locator(`tbody tr[data-step="2"]`).click();
  await expect(page.getByTestId('moment-label')).toHaveAttribute(
    'data-moment',
    String(third.endEvent),
  );
  expect(await problems()).toEqual([]);
});

test('the timeline draws the phases as bands on its ruler and names the one under the pointer', async ({
  page,
}) => {
  const problems = await watchPageProblems(page);
  const { snapshot } = await decodeFile(leaking);
  const device = snapshot.devices[0]!;
  const phases = phasesOf(snapshot, device).phases;
  const names = new Set(phases.map((phase) => phase.name));
  expect(names.has('forward') && names.has('backward') && names.has('optimizer')).toBe(true);
  await openSnapshot(page, leaking);
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-phases', String(phases.length));
  await expect(timeline).toHaveAttribute('data-marks', /phases/);
  await expect(timeline.locator('[data-mark="phases"]')).toHaveCount(1);

  // Where each band lies: from the phase's events on the whole trace's axis, at the canvas's width.
  const canvas = page.getByTestId('timeline-canvas');
  const width = await canvas.evaluate((element) => element.clientWidth);
  const axis = createEventAxis(device, deviceTimesUsable(device) ? 'time' : 'event');
  const [x0, x1] = [axis.toX(axis.minEvent), axis.toX(axis.maxEvent)];
  const xOf = (event: number): number => ((axis.toX(event) - x0) / (x1 - x0)) * width;
  const drawn = ((await timeline.getAttribute('data-phase-bands')) ?? '')
    .split(' ')
    .map((band) => band.split(':'));
  expect(drawn.map(([name]) => name)).toEqual(phases.map((phase) => phase.name));
  phases.forEach((phase, i) => {
    expect(Math.abs(Number(drawn[i]![1]) - xOf(phase.startEvent))).toBeLessThan(0.1);
    expect(Math.abs(Number(drawn[i]![2]) - xOf(phase.endEvent + 1))).toBeLessThan(0.1);
  });

  // The pointer over the widest band (just above the plot's bottom): the tooltip names its phase.
  const widest = phases.reduce((best, phase) =>
    phase.endEvent - phase.startEvent > best.endEvent - best.startEvent ? phase : best,
  );
  const box = (await canvas.boundingBox())!;
  const middle = (xOf(widest.startEvent) + xOf(widest.endEvent + 1)) / 2;
  await page.mouse.move(box.x + middle, box.y + box.height - 7);
  await expect(page.getByTestId('tooltip-phase')).toHaveAttribute('data-phase', widest.name);
  expect(await problems()).toEqual([]);
});

test('a snapshot without steps says so', async ({ page }) => {
  await openSnapshot(page, realSnapshotPath('a0kuma'));
  await page.keyboard.press('6');
  await expect(page.getByTestId('steps-view')).toHaveAttribute('data-source', 'none');
  await expect(page.getByTestId('steps-verdict')).toHaveText(
    'No complete steps: growth per step cannot be told.',
  );
  await expect(page.getByTestId('steps-table')).toHaveCount(0);
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-steps', '0');
  // One forward, backward and AdamW step: its phases over the whole trace, as phasesOf finds
  // them (held to the generator's truth in test/unit/phases.test.ts).
  const { snapshot } = await decodeFile(realSnapshotPath('a0kuma'));
  const expected = phasesOf(snapshot, snapshot.devices[0]!).phases;
  expect(expected.map((phase) => phase.name)).toEqual(['forward', 'backward', 'optimizer']);
  const rows = page.getByTestId('phases-table').locator('tbody tr');
  await expect(rows).toHaveCount(expected.length);
  for (const [i, phase] of expected.entries()) {
    await expect(rows.nth(i)).toHaveAttribute('data-phase', phase.name);
    await expect(rows.nth(i).locator('td').nth(1)).toHaveText(
      `${phase.startEvent}–${phase.endEvent}`,
    );
  }
});
