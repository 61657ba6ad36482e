// A large file's decode shows its progress on a terminal (a pseudo-terminal from util-linux's
// `script`): one line, rewritten in place and erased, on 1 and on 2 threads; the document on
// stdout is the one a pipe gets, and a pipe gets no progress at all.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import { CLI_PATH, runCli } from '../support/cli';

const hasScript = spawnSync('script', ['--version']).status === 0;
if (!hasScript)
  console.log(
    'decode-progress-cli: skipped, util-linux `script` (a pseudo-terminal) is not installed',
  );

let directory = '';
let large = '';

beforeAll(() => {
  if (!hasScript) return;
  directory = mkdtempSync(join(tmpdir(), 'allocscope-progress-'));
  large = join(directory, 'large.pickle');
  generateLargeSnapshot(large, 70_000_000, { seed: 3 });
});
afterAll(() => {
  if (directory !== '') rmSync(directory, { recursive: true, force: true });
});

/** The command run with stderr on a terminal and stdout on a file; what each received. */
function onTerminal(args: readonly string[]): {
  terminal: string;
  stdout: string;
  status: number | null;
} {
  const out = join(directory, 'stdout.json');
  const command = [process.execPath, CLI_PATH, ...args].map((word) => `'${word}'`).join(' ');
  const run = spawnSync('script', ['-qefc', `${command} > '${out}'`, '/dev/null'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  const stdout = spawnSync('cat', [out], { encoding: 'utf8' }).stdout;
  return { terminal: run.stdout, stdout, status: run.status };
}

describe.skipIf(!hasScript)('decode progress on a terminal', () => {
  it.each(['1', '2'])(
    'is shown and erased on %s thread(s), and the document is unchanged',
    (jobs) => {
      const piped = runCli(['summary', large, '--json', '--jobs', jobs]);
      expect(piped.status).toBe(0);
      expect(piped.stderr).toBe('');
      const { terminal, stdout, status } = onTerminal(['summary', large, '--json', '--jobs', jobs]);
      expect(status).toBe(0);
      expect(stdout).toBe(piped.stdout);
      expect(terminal).toContain('\r\x1b[Kreading large.pickle: ');
      expect(terminal).toMatch(/reading large\.pickle: [\d.]+ [KMG]iB of 6\d\.\d MiB \(\d+%\)/);
      // The last thing written to the terminal erases the line.
      expect(terminal.endsWith('\r\x1b[K')).toBe(true);
    },
  );
});
