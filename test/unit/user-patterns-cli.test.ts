// What a user or a colleague's file hands the CLI besides a snapshot: regular expressions
// (`top --grep`, a rules file's `match` patterns) run in linear time whatever they are, and a
// rules file is checked as a snapshot is (a regular file, of a rules file's size) before it is
// read. Each bad one exits 2 with one line that names what is wrong, and where.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { tinySnapshot } from '../support/hostile-files';

const tmp = mkdtempSync(join(tmpdir(), 'allocscope-patterns-'));
const snapshot = join(tmp, 'aaa.pickle');
const RULES_SCHEMA = 'allocscope.category-rules/1';

function rulesFile(name: string, frame: string): string {
  const path = join(tmp, name);
  writeFileSync(
    path,
    JSON.stringify({ schema: RULES_SCHEMA, rules: [{ category: 'activation', match: { frame } }] }),
  );
  return path;
}

/** Runs the CLI, expecting it done well within a second of its own start-up. */
function timedRun(args: string[]): ReturnType<typeof runCli> & { ms: number } {
  const started = performance.now();
  const run = runCli(args);
  return { ...run, ms: performance.now() - started };
}

beforeAll(() => {
  // One live allocation made by a 41-character frame name: the text `(a+)+$` backtracks on for
  // longer than anyone waits with JavaScript's RegExp ("x.py:1 aaaa…a!").
  writeFileSync(
    snapshot,
    tinySnapshot((value) => {
      const segments = value.segments as { blocks: { frames: unknown[] }[] }[];
      // The one stack list is shared by every block and trace entry: its frame is theirs.
      segments[0]!.blocks[0]!.frames[0] = { filename: 'x.py', line: 1, name: `${'a'.repeat(40)}!` };
    }),
  );
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('regular expressions run in linear time', () => {
  it.each([
    ['(a+)+$', 0],
    ['(x+x+)+y', 0],
    ['(.*a){41}', 0],
    ['(.*a){20}', 2],
  ])('top --grep %s answers at once', (pattern, matched) => {
    const run = timedRun(['top', snapshot, '--grep', pattern, '--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect((JSON.parse(run.stdout) as { matched_allocations: number }).matched_allocations).toBe(
      matched,
    );
    // Start-up and the decode are most of it; RegExp took minutes.
    expect(run.ms).toBeLessThan(10_000);
  });

  it('matches what the expression says', () => {
    const run = runCli(['top', snapshot, '--grep', 'a{40}!$', '--json']);
    expect(run.status).toBe(0);
    expect((JSON.parse(run.stdout) as { matched_allocations: number }).matched_allocations).toBe(2);
  });

  it('a rules file with a catastrophic pattern classifies (top, render) at once', () => {
    const rules = rulesFile('redos.json', '(a+)+$');
    const top = timedRun(['top', snapshot, '--by', 'category', '--rules', rules, '--json']);
    expect(top.stderr).toBe('');
    expect(top.status).toBe(0);
    expect(top.ms).toBeLessThan(10_000);
    const svg = join(tmp, 'redos.svg');
    const render = timedRun([
      'render',
      snapshot,
      '--color-by',
      'category',
      '--rules',
      rules,
      '--svg',
      svg,
    ]);
    expect(render.stderr).toBe('');
    expect(render.status).toBe(0);
    expect(render.ms).toBeLessThan(10_000);
  });

  it('refuses what RE2 cannot run with one line saying what it is (exit 2)', () => {
    const lookahead = runCli(['top', snapshot, '--grep', 'forward(?=\\()']);
    expect(lookahead.status).toBe(2);
    expect(lookahead.stdout).toBe('');
    expect(lookahead.stderr.split('\n')[0]).toBe(
      "allocscope: --grep: the expression uses a lookahead (?=…), which allocscope's linear-time regular expressions do not support",
    );
    const backreference = runCli(['top', snapshot, '--grep', '(\\w)\\1']);
    expect(backreference.status).toBe(2);
    expect(backreference.stderr).toMatch(
      /^allocscope: --grep: the expression uses a backreference \\1/,
    );
    // In a rules file: the rules file is named first, then where in it.
    const rules = rulesFile('lookbehind.json', '(?<=torch/)optim');
    const run = runCli(['top', snapshot, '--by', 'category', '--rules', rules]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      "allocscope: lookbehind.json: rules.0.match.frame: the expression uses a lookbehind (?<=…), which allocscope's linear-time regular expressions do not support\n",
    );
  });
});

describe('a rules file is checked before it is read', () => {
  it.each([
    [
      'a named pipe (FIFO)',
      'fifo.json',
      /^allocscope: fifo\.json: is a named pipe \(FIFO\), not a regular file\n$/,
    ],
    ['a device', '/dev/zero', /^allocscope: zero: is a device, not a regular file\n$/],
    ['a folder', tmp, /^allocscope: allocscope-patterns-\w+: is a directory, not a rules file\n$/],
  ])('refuses %s at once', (_what, name, message) => {
    const path = name.startsWith('/') ? name : join(tmp, name);
    if (name === 'fifo.json') execFileSync('mkfifo', [path]);
    for (const command of [
      ['top', snapshot, '--rules', path],
      ['render', snapshot, '--svg', join(tmp, 'x.svg'), '--rules', path],
    ]) {
      const run = timedRun(command);
      expect(run.status, command.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(run.ms).toBeLessThan(10_000);
    }
  });

  it('refuses a rules file larger than 1 MiB from its size, without reading it', () => {
    // 300 MB that take no disk: a sparse file.
    const huge = join(tmp, 'huge-rules.json');
    writeFileSync(huge, '');
    truncateSync(huge, 300_000_000);
    const run = timedRun(['top', snapshot, '--rules', huge]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      'allocscope: huge-rules.json: a rules file is at most 1 MiB; this one is 286.1 MiB\n',
    );
    expect(run.ms).toBeLessThan(10_000);
    // At the limit it is read (and judged on what it holds).
    const full = join(tmp, 'full-rules.json');
    writeFileSync(full, ' '.repeat(1 << 20));
    expect(runCli(['top', snapshot, '--rules', full]).stderr).toMatch(
      /^allocscope: full-rules\.json: not JSON \(/,
    );
  });
});
