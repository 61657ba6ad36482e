// Issue 8's twelve classes of hostile and broken files, hand-made (test/support/hostile-files.ts),
// through the real CLI: each is refused with one line naming the file and what is wrong (exit 2),
// or opens with a warning (exit 0) — in under a second of CPU and under 300 MB, never a crash (exit 1
// or a signal), a hang or an internal error shown as bad input.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { HOSTILE_FILES, writeHostileFile } from '../support/hostile-files';

const dir = mkdtempSync(join(tmpdir(), 'allocscope-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MAX_MS = 1_000;
const MAX_RSS_BYTES = 300 * 1024 * 1024;

interface Timings {
  total_ms: number;
  cpu_ms: number;
  max_rss_bytes: number;
}

function timingsOf(stderr: string): Timings {
  const line = stderr.split('\n').find((text) => text.startsWith('allocscope-timings '));
  if (line === undefined) throw new Error(`no timings in: ${stderr}`);
  return JSON.parse(line.slice('allocscope-timings '.length)) as Timings;
}

describe('hostile files through the CLI', () => {
  it.each(
    HOSTILE_FILES.map((file) => [`class ${file.defectClass}: ${file.description}`, file] as const),
  )('%s', (_name, file) => {
    const path = join(dir, file.name);
    writeHostileFile(path, file);
    const run = runCli(['summary', path, '--json', '--timings']);
    const timings = timingsOf(run.stderr);
    const lines = run.stderr
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('allocscope-timings '));
    if ('refused' in file.expect) {
      expect(run.status, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^allocscope: ${file.name.replace(/\./g, '\\.')}: `));
      expect(lines[0]).toMatch(file.expect.refused);
    } else {
      expect(run.status, run.stderr).toBe(0);
      const summary = JSON.parse(run.stdout) as { warnings: string[] };
      if ('warning' in file.expect) {
        expect(summary.warnings.join('\n')).toMatch(file.expect.warning);
      } else {
        expect(summary.warnings).toEqual([]);
      }
    }
    // CPU time, start-up included: on a machine busy with other work the wall clock says more
    // about the neighbours than about the file.
    expect(timings.cpu_ms).toBeLessThan(MAX_MS);
    expect(timings.max_rss_bytes).toBeLessThan(MAX_RSS_BYTES);
  });

  it('class 12: refuses a FIFO at once instead of waiting for a writer', () => {
    const fifo = join(dir, 'snapshot.fifo');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const run = runCli(['summary', fifo]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      'allocscope: snapshot.fifo: is a named pipe (FIFO), not a regular file (use - to read standard input)',
    );
  });

  it('class 12: refuses a character device', () => {
    const run = runCli(['summary', '/dev/zero']);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      'allocscope: zero: is a device, not a regular file (use - to read standard input)',
    );
  });
});

mkdirSync(dir, { recursive: true });
