/// <reference lib="dom" />
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  reportDocumentSchema,
  type OomExplanationJson,
  type ReportDocument,
} from '../../src/shared/report/report-document';
import { formatBytes } from '../../src/shared/format/units';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';
import { inkedFraction, openSnapshot } from './snapshot-pages';

const snapshotsDirectory = resolve('test/fixtures/real');
/** Three devices; device 1 ran out of memory asking for 4.9 GiB, with expandable segments on. */
const MULTI_GPU = join(snapshotsDirectory, 'Constructor-Sun_code_location__memory_snapshot.pickle');
/** Small, one device, no OOM. */
const ADAM = join(
  snapshotsDirectory,
  'a0kuma_pytorchMemoryViz__tests__gpu_memory_snapshot-adam.pickle',
);
const DEMO = resolve('resources/demo-snapshot.pickle');
const CLI = resolve('out/cli/allocscope.js');

test.beforeAll(() => {
  assertChromiumInstalled();
});

/** The CLI's findings for one device, the reference the page must agree with. */
function cliReport(path: string, device: number): ReportDocument {
  if (!existsSync(CLI)) throw new Error(`${CLI} not found; run \`npm run build\` first.`);
  const output = execFileSync(
    process.execPath,
    [CLI, 'report', path, '--device', String(device), '--json', '-'],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  return reportDocumentSchema.parse(JSON.parse(output));
}

function deviceReport(document: ReportDocument, device: number) {
  const found = document.devices.find((candidate) => candidate.device === device);
  if (!found) throw new Error(`device ${device} not in the report of ${document.file}`);
  return found;
}

/** The panel shows the figures of the shared explainer, exact bytes in data-bytes. */
async function expectExplanationShown(page: Page, expected: OomExplanationJson): Promise<void> {
  const panel = page.getByTestId('oom-explainer');
  await expect(panel).toBeVisible();
  await expect(panel).toHaveAttribute('data-verdict', expected.verdict);
  await expect(panel).toHaveAttribute('data-event', String(expected.event));
  const verdict = panel.getByTestId('oom-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', expected.verdict);
  await expect(verdict).toHaveText(expected.verdictText);
  const figures: [string, number | null][] = [
    ['oom-requested', expected.requestedBytes],
    ['oom-rounded', expected.roundedRequestBytes],
    ['oom-device-free', expected.deviceFreeBytes],
    ['oom-reserved', expected.reservedBytes],
    ['oom-active', expected.activeBytes],
    ['oom-cached-free', expected.cachedFreeBytes],
    ['oom-largest-free', expected.largestFreeBytes],
    ['oom-pool-cached-free', expected.poolCachedFreeBytes],
    ['oom-pool-largest-free', expected.poolLargestFreeBytes],
  ];
  for (const [testId, bytes] of figures) {
    const figure = panel.getByTestId(testId);
    if (bytes === null) {
      if ((await figure.count()) > 0) await expect(figure).not.toHaveAttribute('data-bytes');
      continue;
    }
    await expect(figure, testId).toHaveAttribute('data-bytes', String(bytes));
    await expect(figure, testId).toContainText(formatBytes(bytes));
  }
  // The picture of the request against each group's largest free block (the export's scene):
  // the request's group first, with the largest free block the explainer found there, drawn.
  const holes = panel.getByTestId('oom-holes');
  await expect(holes).toHaveAttribute(
    'data-request-group-largest',
    String(expected.poolLargestFreeBytes),
  );
  await expect.poll(() => inkedFraction(holes.locator('canvas'))).toBeGreaterThan(0.01);
  const holders = panel.getByTestId('oom-holder');
  await expect(holders).toHaveCount(Math.min(expected.holders.length, 12));
  if (expected.holders.length > 0) {
    await expect(holders.first()).toHaveAttribute('data-bytes', String(expected.holders[0]!.bytes));
  }
}

test('the OOM on device 1 of a multi-GPU snapshot is explained', async ({ page }, testInfo) => {
  const problems = await watchPageProblems(page);
  const expected = deviceReport(cliReport(MULTI_GPU, 1), 1);
  expect(expected.ooms).toHaveLength(1);
  const oom = expected.ooms[0]!;
  expect(oom.requestedBytes).toBe(5308694528);
  expect(oom.expandableSegments).toBe(true);

  await openSnapshot(page, MULTI_GPU);
  await page.getByTestId('device-select').selectOption('1');
  const panel = page.getByTestId('oom-explainer');
  await expect(panel.getByTestId('oom-requested')).toHaveAttribute('data-bytes', '5308694528');
  await expectExplanationShown(page, oom);
  await expect(panel.getByTestId('oom-expandable')).toHaveAttribute('data-value', 'true');
  // Expandable segments are already on: the verdict must not suggest turning them on.
  const verdict = await panel.getByTestId('oom-verdict').innerText();
  expect(verdict).not.toMatch(/expandable_segments\s*:\s*True/i);
  // One row per top user frame: no two rows read the same; a row through several stacks opens
  // to them, and their bytes add up to the row's.
  const holders = panel.getByTestId('oom-holder');
  const labels = await holders.locator('td.frame').allInnerTexts();
  const frames = labels.map((label) => label.replace(/^[▸▾] \d+ stacks\s*/, ''));
  expect(new Set(frames).size).toBe(frames.length);
  const grouped = oom.holders.findIndex((holder) => holder.stacks.length > 1);
  expect(grouped).toBeGreaterThanOrEqual(0);
  const row = holders.nth(grouped);
  await row.getByTestId('oom-holder-toggle').click();
  const stacks = panel.getByTestId('oom-holder-stack');
  await expect(stacks).toHaveCount(oom.holders[grouped]!.stacks.length);
  const stackBytes = await stacks.evaluateAll((rows) =>
    rows.map((tr) => Number(tr.getAttribute('data-bytes'))),
  );
  expect(stackBytes.reduce((sum, bytes) => sum + bytes, 0)).toBe(oom.holders[grouped]!.bytes);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('oom-multi-gpu-device-1.png') });
  await row.getByTestId('oom-holder-toggle').click();
  await expect(stacks).toHaveCount(0);

  // The page opens onto the OOM; elsewhere, "Show on timeline" brings the moment back to it.
  const momentLabel = page.getByTestId('moment-label');
  await expect(momentLabel).toHaveAttribute('data-moment', String(oom.event));
  await page.locator('body').press('Home');
  await expect(momentLabel).toHaveAttribute('data-moment', '-1');
  await panel.getByTestId('oom-show-on-timeline').click();
  await expect(momentLabel).toHaveAttribute('data-moment', String(oom.event));
  expect(await problems()).toEqual([]);
});

test('the demo snapshot opens onto its OOM, with a verdict', async ({ page }, testInfo) => {
  test.skip(!existsSync(DEMO), `${DEMO} does not exist yet (generated separately)`);
  const report = cliReport(DEMO, 0);
  const expected = deviceReport(report, 0);
  expect(expected.ooms.length).toBeGreaterThan(0);

  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('open-demo').click();
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await expectExplanationShown(page, expected.ooms[0]!);
  await expect(page.getByTestId('oom-verdict')).not.toHaveText('');
  await page.setViewportSize({ width: 1280, height: 1200 });
  await page.screenshot({ path: testInfo.outputPath('oom-demo.png') });
});

test('a snapshot without an OOM explains its peak as "what if"', async ({ page }) => {
  const expected = deviceReport(cliReport(ADAM, 0), 0);
  expect(expected.ooms).toEqual([]);
  await openSnapshot(page, ADAM);
  await page.getByTestId('view-tab-oom').click();
  const panel = page.getByTestId('oom-explainer');
  await expect(panel).toContainText('What if: no OOM in this trace; at the active peak');
  await expectExplanationShown(page, expected.whatIf!);
  await expect(panel.getByTestId('oom-requested')).toHaveCount(0);
});
