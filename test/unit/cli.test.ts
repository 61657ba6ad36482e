// The `allocscope` command as users run it: JSON and human output, options, usage errors.

import { execFile, execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summaryDocumentSchema } from '@shared/report/summary-report';
import { runCli } from '../support/cli';
import { realSnapshotPath } from '../support/real-snapshots';
import { referenceSummary, withoutWarnings } from '../support/summarize';

const multiDevice = realSnapshotPath('Constructor-Sun');

describe('allocscope summary', () => {
  it('--json prints exactly one valid document equal to the reference', () => {
    const run = runCli(['summary', multiDevice, '--json']);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const document: unknown = JSON.parse(run.stdout);
    expect(summaryDocumentSchema.parse(document).devices.map((device) => device.device)).toEqual([
      0, 1, 2,
    ]);
    expect(withoutWarnings(document as object)).toEqual(
      withoutWarnings(referenceSummary(multiDevice)),
    );
  });

  it('--device N keeps one device; --top K limits the allocations', () => {
    const run = runCli(['summary', multiDevice, '--json', '--device', '1', '--top=3']);
    const document = summaryDocumentSchema.parse(JSON.parse(run.stdout));
    expect(document.devices).toHaveLength(1);
    expect(document.devices[0]!.device).toBe(1);
    expect(document.devices[0]!.largest_allocations_at_peak).toHaveLength(3);
  });

  it('prints a human table per device, with exact bytes on request', () => {
    const run = runCli(['summary', multiDevice, '--bytes']);
    expect(run.status).toBe(0);
    const reference = referenceSummary(multiDevice) as {
      devices: { active_bytes: { peak: number } }[];
    };
    const peak = reference.devices[1]!.active_bytes.peak;
    expect(run.stdout).toMatch(/^cuda:1: 596 trace entries, 8 segments, 32 blocks$/m);
    expect(run.stdout).toContain(`(${peak.toLocaleString('en-US')} B)`);
    expect(run.stdout).toMatch(/OOM at event 421: requested 4\.9 GiB/);
    expect(run.stdout).toMatch(/largest allocations alive at the active peak \(requested bytes\):/);
  });

  it('rejects an unknown device with exit 2', () => {
    const run = runCli(['summary', multiDevice, '--device', '7']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/device 7 is not in .* \(devices: 0, 1, 2\)/);
  });

  it.each([
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['summary'], /summary needs a FILE/],
    [['summary', multiDevice, '--top', 'ten'], /--top takes a whole number/],
    [['summary', multiDevice, '--wat'], /unknown option --wat/],
  ])('usage error %j exits 2', (args, message) => {
    const run = runCli(args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });

  it('--help prints usage', () => {
    const run = runCli(['--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/usage:\n\s+allocscope summary FILE/);
  });

  it('runs in the repo as `npm run --silent cli -- summary FILE --json`', () => {
    const stdout = execFileSync(
      'npm',
      ['run', '--silent', 'cli', '--', 'summary', multiDevice, '--json'],
      {
        cwd: resolve(import.meta.dirname, '../..'),
        encoding: 'utf8',
      },
    );
    expect(summaryDocumentSchema.parse(JSON.parse(stdout)).file).toBe(multiDevice.split('/').pop());
  });
});

describe('npm run cli', () => {
  it('runs any number of times at once, each giving the output of a single run', async () => {
    // The README's form for scripts: `npm run --silent cli -- summary FILE --json`, i.e.
    // scripts/cli.mjs, which builds only when the build is missing or stale, under a lock.
    const args = [resolve('scripts/cli.mjs'), 'summary', multiDevice, '--json'];
    const one = await run(args);
    const many = await Promise.all(Array.from({ length: 8 }, () => run(args)));
    expect(one.code).toBe(0);
    for (const result of many) expect(result).toEqual(one);
  });
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : (error.code as number | null), stdout, stderr });
    });
  });
}
