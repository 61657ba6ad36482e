// Words that must hold whatever the numbers: one plural rule ("1 free has", "2 frees have"), one
// rule for a snapshot without devices (every command reads it, says so and exits 0), `top
// --folded` naming the file it wrote, and picture titles that give up the middle of a long file
// name, not the device and the figures after it.

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countOf, nounFor } from '../../src/shared/format/plural';
import { fitTitle, shortenMiddle } from '../../src/shared/render/fit-title';
import { textWidth } from '../../src/shared/render/svg-markup';
import { NO_DEVICES_TEXT } from '../../src/cli/no-devices';
import { runCli } from '../support/cli';
import { realSnapshotPath } from '../support/real-snapshots';

const outDir = mkdtempSync(join(tmpdir(), 'allocscope-wording-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('plurals', () => {
  it('takes the singular for exactly one, the plural otherwise, digits grouped', () => {
    expect(countOf(1, 'free')).toBe('1 free');
    expect(countOf(0, 'free')).toBe('0 frees');
    expect(countOf(2, 'step')).toBe('2 steps');
    expect(countOf(12345, 'entry', 'entries')).toBe('12,345 entries');
    expect(countOf(1, 'entry', 'entries')).toBe('1 entry');
    expect(`${countOf(1, 'free')} ${nounFor(1, 'has', 'have')}`).toBe('1 free has');
    expect(`${countOf(3, 'free')} ${nounFor(3, 'has', 'have')}`).toBe('3 frees have');
  });

  it('says "1 free has no alloc" for a trace with one unmatched free', () => {
    // Device 1 of the golden multi-device snapshot starts with one free whose alloc is not in it.
    execFileSync('python3', [
      join(import.meta.dirname, '../golden/make_golden_snapshots.py'),
      outDir,
    ]);
    const run = runCli(['summary', join(outDir, 'multi.pickle')]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('1 free has no alloc in the trace');
    expect(run.stdout).not.toMatch(/\b1 frees\b|\b1 steps\b|\b1 spans are\b/);
  });
});

describe('a snapshot without devices', () => {
  const path = realSnapshotPath('angelolmn'); // no segments, no trace entries
  const named = `angelolmn_HitsBE__my_snapshot.pickle: ${NO_DEVICES_TEXT}`;
  const svg = join(outDir, 'none.svg');
  const commands: string[][] = [
    ['summary'],
    ['report'],
    ['segments'],
    ['top'],
    ['steps'],
    ['render', '--svg', svg],
    ['top', '--folded', join(outDir, 'none.txt')],
  ];

  it.each(commands)('%s: says so and exits 0', (command, ...rest) => {
    const run = runCli([command, path, ...rest]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(NO_DEVICES_TEXT);
  });

  it('the commands about one device name the file', () => {
    for (const command of ['top', 'steps'])
      expect(runCli([command, path]).stdout.trim()).toBe(named);
  });

  it('keeps stdout for JSON: the words on stderr, exit 0', () => {
    for (const command of ['steps', 'top']) {
      const run = runCli([command, path, '--json']);
      expect(run.status).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim()).toBe(`allocscope: ${named}`);
    }
    const summary = runCli(['summary', path, '--json']);
    expect(summary.status).toBe(0);
    expect(JSON.parse(summary.stdout).devices).toEqual([]);
  });

  it('diff names the file that has none', () => {
    const run = runCli(['diff', path, realSnapshotPath('Constructor-Sun')]);
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(named);
  });
});

describe('top --folded', () => {
  it('says which file it wrote and how many allocations it holds', () => {
    const out = join(outDir, 'stacks.txt');
    const run = runCli(['top', realSnapshotPath('Constructor-Sun'), '--folded', out]);
    expect(run.status).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    const wrote = run.stdout.trim().split('\n').at(-1)!;
    expect(wrote).toMatch(
      new RegExp(
        `^wrote ${out.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: folded stacks of the [\\d,]+ allocations alive after event \\d+$`,
      ),
    );
    // Every live allocation is one folded line at most (lines of one stack are merged).
    const count = Number(/of the ([\d,]+) allocations/.exec(wrote)![1]!.replace(/,/g, ''));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(count);
    const json = runCli(['top', realSnapshotPath('Constructor-Sun'), '--folded', out, '--json']);
    expect(JSON.parse(json.stdout).schema).toMatch(/^allocscope\.top\//);
    expect(json.stderr.trim()).toBe(`allocscope: ${wrote}`);
  });
});

describe('picture titles', () => {
  it('shorten the middle of a long file name, keeping what follows it', () => {
    expect(shortenMiddle('abcdefghij', 5)).toBe('ab…ij');
    const name = `${'very_long_experiment_name_'.repeat(8)}rank_3.pickle`;
    const title = `${name} · cuda:0 · all 1,234 events · peak active 3.5 GiB, reserved 4.0 GiB`;
    const fitted = fitTitle(title, name, 900, 13);
    expect(textWidth(fitted, 13)).toBeLessThanOrEqual(900);
    expect(fitted).toMatch(
      /^very_long_exp.*….*rank_3\.pickle · cuda:0 · all 1,234 events · peak active 3\.5 GiB, reserved 4\.0 GiB$/,
    );
    expect(fitTitle('run.pickle · cuda:0', 'run.pickle', 900, 13)).toBe('run.pickle · cuda:0');
  });

  it('render keeps the device and the peaks in the title of a file with a long name', () => {
    const long = join(outDir, `${'a_very_long_name_of_a_training_run_'.repeat(5)}rank_7.pickle`);
    copyFileSync(realSnapshotPath('Constructor-Sun'), long);
    const svg = join(outDir, 'long.svg');
    const run = runCli(['render', long, '--svg', svg, '--width', '1280', '--height', '720']);
    expect(run.status).toBe(0);
    const text = readFileSync(svg, 'utf8');
    const shown = /font-weight="bold">([^<]*)<\/text>/.exec(text)![1]!;
    expect(shown).toMatch(
      /…[^·]*rank_7\.pickle · cuda:\d+ · .*peak active [\d.]+ [KMG]iB, reserved [\d.]+ [KMG]iB/,
    );
  });
});
