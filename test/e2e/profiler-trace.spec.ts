/// <reference lib="dom" />
// A PyTorch profiler trace recorded with real PyTorch (test/fixtures/profiler: a CPU training loop
// that keeps 1,048,576 B per step in a Python list) opens in the web build at 1280x720 as a
// snapshot does: the cpu device with the CLI's figures, its timeline, the largest allocations at
// the line that leaks, Who holds it by op as `top --by op` says, the leak as the first suspect
// of Steps; the views that need the allocator's
// segments say plainly that a trace does not record them, and offer no picture.

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';
import { inkedFraction, openSnapshot } from './snapshot-pages';

const LEAK = resolve('test/fixtures/profiler/leak.pt.trace.json.gz');
const CLI = resolve('out/cli/allocscope.js');
/** What the recording script keeps per step (test/fixtures/profiler/manifest.json). */
const LEAK_BYTES_PER_STEP = 1_048_576;

test.use({ viewport: { width: 1280, height: 720 } });
test.beforeAll(() => assertChromiumInstalled());

interface SummaryJson {
  source?: string;
  devices: { device: number; active_bytes: { peak: number } }[];
}

/** The cpu device's number in the documents (docs/summary-json.md). */
const CPU_DEVICE = -2;

test('a recorded profiler trace: cpu, its timeline, the leaking line, and no segments', async ({
  page,
}) => {
  const problems = await watchPageProblems(page);
  const summary = JSON.parse(
    execFileSync(process.execPath, [CLI, 'summary', LEAK, '--json'], { encoding: 'utf8' }),
  ) as SummaryJson;
  expect(summary.source).toBe('profiler_trace');
  const cpu = summary.devices.find((device) => device.device === CPU_DEVICE)!;
  expect(cpu).toBeDefined();

  await openSnapshot(page, LEAK);
  await expect(page.getByTestId('device-select')).toContainText('cpu');
  await expect(page.getByTestId('summary-active-peak')).toHaveAttribute(
    'data-bytes',
    String(cpu.active_bytes.peak),
  );
  await expect.poll(() => inkedFraction(page.getByTestId('timeline-canvas'))).toBeGreaterThan(0.05);

  // The largest allocations at the peak: the six the script kept, at the line that keeps them.
  const rows = page.getByTestId('largest-row');
  await expect(rows.first()).toContainText('leak_step');
  const leaking = await rows.filter({ hasText: 'leak_step' }).count();
  expect(leaking).toBe(6);

  // Who holds it, by op: the groups and bytes of `allocscope top --by op` at the peak, the
  // kept tensors' aten::empty first.
  const byOp = JSON.parse(
    execFileSync(process.execPath, [CLI, 'top', LEAK, '--by', 'op', '--json'], {
      encoding: 'utf8',
    }),
  ) as { groups: { key: string; bytes: number }[] };
  expect(byOp.groups[0]!.key).toBe('aten::empty');
  await page.keyboard.press('5');
  await page.getByTestId('holders-group-by').selectOption('op');
  const groupRows = page.getByTestId('holders-table').locator('tbody tr');
  await expect(groupRows).toHaveCount(byOp.groups.length);
  await expect(groupRows.first().locator('td.holders-key')).toHaveText('aten::empty');
  expect(
    await groupRows.evaluateAll((rows) =>
      rows.map((row) => [
        row.querySelector('td.holders-key')!.textContent,
        Number(row.getAttribute('data-bytes')),
      ]),
    ),
  ).toEqual(byOp.groups.map((group) => [group.key, group.bytes]));

  // Steps: the leak is the first suspect, at the bytes the script keeps per step.
  await page.keyboard.press('6');
  const suspect = page.getByTestId('steps-suspects').locator('tbody tr').first();
  await expect(suspect).toContainText('leak_step');
  const perStep = Number(await suspect.getAttribute('data-bytes-per-step'));
  expect(Math.abs(perStep - LEAK_BYTES_PER_STEP)).toBeLessThanOrEqual(LEAK_BYTES_PER_STEP / 100);
  // A CPU trace records no reserved bytes: no "Reserved at end" column of 0 B.
  const stepsHead = page.getByTestId('steps-table').locator('thead th');
  await expect(stepsHead).toHaveText(['Step', 'Events', 'Peak active', 'Active at end', 'Change']);

  // The views that need the allocator's segments say why they are empty, and export no picture.
  for (const [key, view] of [
    ['2', 'segments'],
    ['3', 'fragmentation'],
    ['4', 'oom'],
  ] as const) {
    await page.keyboard.press(key);
    await expect(page.getByTestId(`view-tab-${view}`)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('segments-not-recorded')).toContainText(
      'A PyTorch profiler trace does not record segments',
    );
    await expect(page.getByTestId('export-png')).toHaveCount(0);
    await expect(page.getByTestId('export-json')).toHaveCount(1);
  }
  // And the views that apply draw again when chosen.
  await page.keyboard.press('1');
  await expect(page.getByTestId('segments-not-recorded')).toHaveCount(0);
  await expect(page.getByTestId('export-png')).toHaveCount(1);
  expect(await problems()).toEqual([]);
});
