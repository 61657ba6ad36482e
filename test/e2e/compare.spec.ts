// The Compare view (key 7) at 1280x720: two real snapshots open, the second is listed; the curves
// and the difference are drawn, the figures side by side are the files' own peaks and their
// difference, the verdict and the table of changes agree with the shared comparison computed
// here (these two have no phase in common: their peaks, and the verdict says why); two generated
// runs differing only in sequence length compare matched phases by default, each one's own peak
// as a choice; a file with several devices compares them with each other; with one file of one device
// the view says how to get something to compare with.

import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import { expect, test, type Page } from '@playwright/test';
import { compareMoments } from '../../src/shared/compare/compare-moments';
import { alignMoments } from '../../src/shared/compare/phase-alignment';
import { alignedVerdict, peakPhases } from '../../src/shared/compare/aligned-verdict';
import { defaultDeviceIndex } from '../../src/shared/analyzed/moments';
import { escapeXml } from '../../src/shared/render/svg-markup';
import { compareTitle } from '../../src/shared/render/compare-svg';
import { deviceLabel } from '../../src/shared/format/words';
import { formatBytes } from '../../src/shared/format/units';
import { realSnapshotPath } from '../support/real-snapshots';
import { watchPageProblems } from './page-problems';
import { decodeFile, openSnapshot } from './snapshot-pages';

test.use({ viewport: { width: 1280, height: 720 } });

/** Opens one more file in a new tab of the same page. */
async function openAnother(page: Page, path: string): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(path);
  await expect(
    page.getByRole('tab', { name: new RegExp(basename(path).slice(0, 12)) }),
  ).toHaveCount(1);
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
}

test('two open snapshots on one axis, their figures and what changed', async ({ page }) => {
  const problems = await watchPageProblems(page);
  const pathA = realSnapshotPath('kkaitlyn111');
  const pathB = realSnapshotPath('cherryni2022');
  const a = (await decodeFile(pathA)).snapshot;
  const b = (await decodeFile(pathB)).snapshot;
  const deviceA = a.devices[defaultDeviceIndex(a.devices)]!;
  const deviceB = b.devices[defaultDeviceIndex(b.devices)]!;

  await openSnapshot(page, pathB);
  await openAnother(page, pathA);
  await page.keyboard.press('7');
  const compare = page.getByTestId('compare-view');
  await expect(compare).toHaveAttribute('data-state', 'shown');
  await expect(page.getByTestId('compare-with')).toContainText(basename(pathB));
  // The three curves are drawn.
  const chart = page.getByTestId('compare-chart');
  for (const curve of ['a', 'b', 'difference'])
    await expect(chart.locator(`path[data-curve="${curve}"]`)).toHaveAttribute('d', /^M/);
  // Figures side by side: the files' own peaks and their difference.
  await expect(
    page.getByTestId('compare-figures').locator('tr[data-figure="peak active"]'),
  ).toHaveAttribute(
    'data-delta',
    String(deviceB.figures.active.peakBytes - deviceA.figures.active.peakBytes),
  );
  // Both record reserved bytes: their peaks and the difference (a CPU trace's are not recorded).
  await expect(
    page.getByTestId('compare-figures').locator('tr[data-figure="peak reserved"]'),
  ).toHaveAttribute(
    'data-delta',
    String(deviceB.figures.reserved.peakBytes - deviceA.figures.reserved.peakBytes),
  );
  // The table: the changes of the shared comparison at matched phases, largest first.
  const sideA = { snapshot: a, device: deviceA };
  const sideB = { snapshot: b, device: deviceB };
  const byPhase = alignMoments(sideA, sideB, 'phases');
  // One records no backward pass or optimizer step, the other only an optimizer step.
  expect(byPhase.alignment).toBe('peaks');
  expect(byPhase.fallback).not.toBeNull();
  const comparison = compareMoments(
    { ...sideA, moment: byPhase.aMoment },
    { ...sideB, moment: byPhase.bMoment },
  );
  const verdict = alignedVerdict(comparison, byPhase, peakPhases(sideA, sideB));
  const expected = comparison.groups.filter((group) => group.deltaBytes !== 0);
  const rows = page.getByTestId('compare-table').locator('tbody tr');
  await expect(rows).toHaveCount(Math.min(100, expected.length));
  await expect(rows.first()).toHaveAttribute('data-key', expected[0]!.key);
  await expect(rows.first()).toHaveAttribute('data-delta', String(expected[0]!.deltaBytes));
  await expect(page.getByTestId('compare-verdict')).toHaveText(verdict);
  await expect(page.getByTestId('compare-verdict')).toContainText(
    `Not by phase: ${byPhase.fallback}`,
  );
  // Aligning by event index redraws on that axis.
  await page.getByTestId('compare-align').selectOption('event');
  await expect(compare).toHaveAttribute('data-align', 'event');
  // Its own picture as PNG/SVG: both curves and B - A by event index, the verdict with them.
  await expect(page.getByTestId('export-what')).toHaveAttribute('data-view', 'compare');
  const started = page.waitForEvent('download');
  await page.getByTestId('export-svg').click();
  const download = await started;
  expect(download.suggestedFilename()).toMatch(/\.cuda\d+\.compare\.svg$/);
  const svg = await readFile(await download.path(), 'utf8');
  expect(svg).toContain('class="allocscope-compare"');
  expect(svg).toContain('active bytes by event index');
  for (const curve of ['a', 'b', 'difference']) expect(svg).toContain(`data-curve="${curve}"`);
  expect(svg).toContain(escapeXml(verdict).slice(0, 60));
  // Its title line names both files, devices and the moments compared.
  expect(svg).toContain(
    escapeXml(
      compareTitle(
        `${a.fileName} ${deviceLabel(deviceA.device)}`,
        `${b.fileName} ${deviceLabel(deviceB.device)}`,
        { a: byPhase.aMoment, b: byPhase.bMoment },
      ),
    ).slice(0, 60),
  );
  expect(await problems()).toEqual([]);
});

test('two runs differing in sequence length: matched phases, own peaks a choice', async ({
  page,
}) => {
  const problems = await watchPageProblems(page);
  const directory = mkdtempSync(join(tmpdir(), 'allocscope-compare-e2e-'));
  try {
    // One step of one program from its start, at two batch shapes (compare-phases.test.ts).
    const run = (name: string, batchScale: number): string => {
      const path = join(directory, name);
      generateLargeSnapshot(path, 64 * 2 ** 20, {
        seed: 5,
        devices: 1,
        dumpAfterSteps: 1,
        recordFromStart: true,
        batchScale,
        maxAnnotations: 100_000,
      });
      return path;
    };
    const pathA = run('seq128.pickle', 0.25);
    const pathB = run('seq512.pickle', 1);
    const snapshotA = (await decodeFile(pathA)).snapshot;
    const snapshotB = (await decodeFile(pathB)).snapshot;
    const a = { snapshot: snapshotA, device: snapshotA.devices[0]! };
    const b = { snapshot: snapshotB, device: snapshotB.devices[0]! };
    await openSnapshot(page, pathB);
    await openAnother(page, pathA);
    await page.keyboard.press('7');
    await expect(page.getByTestId('compare-view')).toHaveAttribute('data-state', 'shown');

    const byPhase = alignMoments(a, b, 'phases');
    expect(byPhase.phase).toBe('forward');
    const comparison = compareMoments(
      { ...a, moment: byPhase.aMoment },
      { ...b, moment: byPhase.bMoment },
    );
    const verdict = alignedVerdict(comparison, byPhase, peakPhases(a, b));
    await expect(page.getByTestId('compare-at')).toHaveValue('phases');
    await expect(page.getByTestId('compare-at').locator('option:checked')).toHaveText(
      'matched phases (forward)',
    );
    await expect(page.getByTestId('compare-verdict')).toHaveText(verdict);
    await expect(page.getByTestId('compare-verdict')).toContainText(/^B's forward peaks/);
    await expect(page.getByTestId('compare-table').locator('tbody tr').first()).toHaveAttribute(
      'data-key',
      comparison.groups[0]!.key,
    );
    // Each phase both have, with its peaks side by side; the one compared is marked.
    expect(byPhase.matchedPhases.map((phase) => phase.name)).toEqual([
      'forward',
      'backward',
      'optimizer',
      'other',
    ]);
    for (const phase of byPhase.matchedPhases)
      await expect(
        page.getByTestId('compare-figures').locator(`tr[data-figure^="${phase.name} peak"]`),
      ).toHaveAttribute('data-delta', String(phase.deltaBytes));
    await expect(page.getByTestId('compare-figures')).toContainText('forward peak ◂');

    // Each one's own peak stays a choice; the verdict says why it misleads.
    await page.getByTestId('compare-at').selectOption('peaks');
    const peaks = alignMoments(a, b, 'peaks');
    await expect(page.getByTestId('compare-verdict')).toHaveText(
      alignedVerdict(
        compareMoments({ ...a, moment: peaks.aMoment }, { ...b, moment: peaks.bMoment }),
        peaks,
        peakPhases(a, b),
      ),
    );
    await expect(page.getByTestId('compare-verdict')).toContainText(
      "A's in optimizer, B's in forward",
    );
    // And one phase by name.
    await page.getByTestId('compare-at').selectOption('phase:backward');
    await expect(page.getByTestId('compare-verdict')).toContainText(/^B's backward peaks/);
    expect(await problems()).toEqual([]);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('a file with several devices compares them; one device alone says what to do', async ({
  page,
}) => {
  await openSnapshot(page, realSnapshotPath('Constructor-Sun'));
  await page.keyboard.press('7');
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-state', 'shown');
  await expect(page.getByTestId('compare-with').locator('option')).toHaveCount(2);

  await openSnapshot(page, realSnapshotPath('a0kuma'));
  await page.keyboard.press('7');
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-state', 'empty');
  await expect(page.getByTestId('compare-view')).toContainText('open a second snapshot');
});

test('a file dropped on a tab opens and is compared with it', async ({ page }) => {
  const target = realSnapshotPath('kkaitlyn111');
  const dropped = realSnapshotPath('cherryni2022');
  await openSnapshot(page, target);
  const base64 = (await readFile(dropped)).toString('base64');
  const dataTransfer = await page.evaluateHandle(
    ({ name, data }) => {
      const transfer = new DataTransfer();
      const bytes = Uint8Array.from(atob(data), (character) => character.charCodeAt(0));
      transfer.items.add(new File([bytes], name));
      return transfer;
    },
    { name: basename(dropped), data: base64 },
  );
  const tab = page.locator(`[data-testid="tab"][data-file-name="${basename(target)}"]`);
  await tab.dispatchEvent('dragenter', { dataTransfer });
  await tab.dispatchEvent('drop', { dataTransfer });
  // The dropped file decodes first (1.6 MB: seconds on a loaded machine).
  await expect(page.locator('[data-tab-state="snapshot"]')).toHaveCount(2, { timeout: 30_000 });
  // The tab it was dropped on shows its Compare view, comparing with the dropped file.
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-state', 'shown');
  await expect(page.getByTestId('compare-with').locator('option:checked')).toContainText(
    basename(dropped),
  );
});

test('CPU profiler traces record no reserved bytes: not recorded, never 0 B, and which side', async ({
  page,
}) => {
  const problems = await watchPageProblems(page);
  const cleanPath = resolve('test/fixtures/profiler/clean.pt.trace.json.gz');
  const leakPath = resolve('test/fixtures/profiler/leak.pt.trace.json.gz');
  const snapshotPath = resolve('test/fixtures/cuda-h200/expandable.pickle');
  const clean = (await decodeFile(cleanPath)).snapshot;
  const leak = (await decodeFile(leakPath)).snapshot;
  const cuda = (await decodeFile(snapshotPath)).snapshot;
  const deviceOf = (snapshot: typeof clean) =>
    snapshot.devices[defaultDeviceIndex(snapshot.devices)]!;
  expect(deviceOf(clean).figures.reservedRecorded).toBe(false);
  expect(deviceOf(cuda).figures.reservedRecorded).toBe(true);
  const figures = page.getByTestId('compare-figures');
  const reserved = figures.locator('tr[data-figure="peak reserved"]');
  const cells = reserved.locator('td');

  // Two CPU traces: A is the leak (the tab shown), B the clean one.
  await openSnapshot(page, cleanPath);
  await openAnother(page, leakPath);
  await page.keyboard.press('7');
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-state', 'shown');
  await expect(cells).toHaveText(['not recorded', 'not recorded', '—']);
  await expect(reserved).not.toHaveAttribute('data-delta');
  await expect(reserved).toHaveAttribute('title', /^Neither A nor B records reserved bytes/);
  // The active peaks are still compared.
  await expect(figures.locator('tr[data-figure="peak active"]')).toHaveAttribute(
    'data-delta',
    String(deviceOf(clean).figures.active.peakBytes - deviceOf(leak).figures.active.peakBytes),
  );
  await expect(figures).not.toContainText(/reserved\s*0 B/);

  // A CUDA snapshot (A) against a CPU trace (B): A's reserved peak, B's not recorded.
  await openAnother(page, snapshotPath);
  await page.keyboard.press('7');
  const withSelect = page.getByTestId('compare-with');
  await withSelect.selectOption({
    label: `${leak.fileName} · ${deviceLabel(deviceOf(leak).device)}`,
  });
  await expect(cells.nth(0)).toHaveText(formatBytes(deviceOf(cuda).figures.reserved.peakBytes));
  await expect(cells.nth(1)).toHaveText('not recorded');
  await expect(cells.nth(2)).toHaveText('—');
  await expect(reserved).not.toHaveAttribute('data-delta');
  await expect(reserved).toHaveAttribute(
    'title',
    /^B records no reserved bytes \(a profiler trace/,
  );

  // The trace's tab compared with the snapshot: the sides swap, and so do the words.
  await page.getByRole('tab', { name: /leak\.pt\.trac/ }).click();
  await page.keyboard.press('7');
  await withSelect.selectOption({
    label: `${cuda.fileName} · ${deviceLabel(deviceOf(cuda).device)}`,
  });
  await expect(cells.nth(0)).toHaveText('not recorded');
  await expect(cells.nth(1)).toHaveText(formatBytes(deviceOf(cuda).figures.reserved.peakBytes));
  await expect(reserved).toHaveAttribute('title', /^A records no reserved bytes/);
  expect(await problems()).toEqual([]);
});
