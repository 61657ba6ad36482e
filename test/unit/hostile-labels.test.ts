// Issue 20's label bombs and deeply nested metadata (test/support/hostile-labels.ts) through every
// CLI command that labels stacks or writes the user's metadata into a document: each answers
// (exit 0) within a second of CPU, and its JSON documents are written, never a stack overflow.
// The summary of each is also checked with the other hostile files (hostile-files.test.ts).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GROUP_BYS } from '@shared/holders/group-by';
import { runCli } from '../support/cli';
import { LABEL_AND_METADATA_FILES } from '../support/hostile-labels';

const dir = mkdtempSync(join(tmpdir(), 'allocscope-labels-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** CPU time a command may take on these files, start-up included. */
const MAX_CPU_MS = 1_500;

function cpuMsOf(stderr: string): number {
  const line = stderr.split('\n').find((text) => text.startsWith('allocscope-timings '));
  if (line === undefined) return 0;
  return (JSON.parse(line.slice('allocscope-timings '.length)) as { cpu_ms: number }).cpu_ms;
}

describe.each(LABEL_AND_METADATA_FILES.map((file) => [file.name, file] as const))(
  '%s',
  (name, file) => {
    const path = join(dir, name);
    writeFileSync(path, file.bytes());

    it('the report and the summary, as JSON, with every stack labelled', () => {
      const report = runCli(['report', path, '--json', '-']);
      expect(report.status, report.stderr).toBe(0);
      const document = JSON.parse(report.stdout) as { schema: string };
      expect(document.schema).toMatch(/^allocscope\.report\//);
      const summary = runCli(['summary', path, '--json', '--timings']);
      expect(summary.status, summary.stderr).toBe(0);
      expect(cpuMsOf(summary.stderr)).toBeLessThan(MAX_CPU_MS);
      const { devices } = JSON.parse(summary.stdout) as {
        devices: { largest_allocations_at_peak: { top_frame: string | null }[] }[];
      };
      const labels = devices.flatMap((device) =>
        device.largest_allocations_at_peak.map((row) => row.top_frame ?? ''),
      );
      expect(labels.length).toBeGreaterThan(0);
      for (const label of labels) expect(label.length).toBeLessThanOrEqual(100);
    });

    it.each(GROUP_BYS.map((by) => [by]))('top --by %s --json', (by) => {
      const run = runCli(['top', path, '--by', by, '--json']);
      expect(run.status, run.stderr).toBe(0);
      expect(() => JSON.parse(run.stdout) as unknown).not.toThrow();
    });

    it('the flame graph and the timeline coloured by frame, as SVG', () => {
      for (const args of [
        ['--view', 'flame'],
        ['--color-by', 'frame'],
        ['--color-by', 'category'],
      ]) {
        const svg = join(dir, `${name}.svg`);
        const run = runCli(['render', path, '--svg', svg, ...args]);
        expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      }
    });
  },
);
