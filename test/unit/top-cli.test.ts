// `allocscope top`, run as a user runs it: its document agrees with `summary --json` and with
// itself (groups add up to the active bytes; a search only narrows), --folded writes what
// speedscope reads, --rules changes the categories, bad input exits 2 with one line.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { realSnapshotPath, realSnapshotPaths } from '../support/real-snapshots';

interface TopDocument {
  schema: string;
  file: string;
  device: number;
  moment: { event_index: number; active_bytes: number };
  by: string;
  grep: string | null;
  rules: string;
  matched_bytes: number;
  matched_allocations: number;
  groups: {
    key: string;
    title: string;
    bytes: number;
    allocations: number;
    top_frames: string[];
  }[];
  omitted_groups: { count: number; bytes: number; allocations: number };
}

function top(args: string[]): TopDocument {
  const run = runCli(['top', ...args, '--json']);
  // --folded says which file it wrote on stderr, beside the JSON.
  const folded = args.indexOf('--folded');
  if (folded < 0) expect(run.stderr).toBe('');
  else expect(run.stderr).toMatch(/^allocscope: wrote .*: folded stacks of the [\d,]+ allocations/);
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as TopDocument;
}

function groupTotal(document: TopDocument): number {
  return document.groups.reduce((sum, g) => sum + g.bytes, 0) + document.omitted_groups.bytes;
}

const tmp = mkdtempSync(join(tmpdir(), 'allocscope-top-'));

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (_name, path) => {
  it('holds every byte alive at the peak, as summary --json counts them', () => {
    const summary = JSON.parse(runCli(['summary', path, '--json']).stdout) as {
      devices: { device: number; active_bytes: { peak: number; peak_event_index: number } }[];
    };
    for (const device of summary.devices) {
      const document = top([
        path,
        '--device',
        String(device.device),
        '--moment',
        'peak',
        '--limit',
        '5',
      ]);
      expect(document.schema).toBe('allocscope.top/1');
      expect(document.device).toBe(device.device);
      if (device.active_bytes.peak_event_index >= 0) {
        expect(document.moment.event_index).toBe(device.active_bytes.peak_event_index);
        expect(document.moment.active_bytes).toBe(device.active_bytes.peak);
      }
      expect(document.matched_bytes).toBe(document.moment.active_bytes);
      expect(groupTotal(document)).toBe(document.moment.active_bytes);
      expect(document.groups.length).toBeLessThanOrEqual(5);
    }
  });
});

describe('top', () => {
  const file = realSnapshotPath('LINYUN');

  it('narrows to the allocations a search matches, and a search that matches nothing is 0', () => {
    const all = top([file, '--by', 'file']);
    const grad = top([file, '--grep', 'AccumulateGrad']);
    expect(grad.grep).toBe('AccumulateGrad');
    expect(grad.matched_bytes).toBeGreaterThan(0);
    expect(grad.matched_bytes).toBeLessThan(all.matched_bytes);
    expect(groupTotal(grad)).toBe(grad.matched_bytes);
    expect(grad.groups.map((g) => g.key)).toEqual(['autograd: AccumulateGrad']);
    const none = top([file, '--grep', 'no-such-frame-anywhere']);
    expect(none.matched_bytes).toBe(0);
    expect(none.groups).toEqual([]);
  });

  it('writes folded stacks whose weights add up to the active bytes', () => {
    const out = join(tmp, 'live.folded');
    const document = top([file, '--folded', out]);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    let total = 0;
    for (const line of lines) {
      // speedscope and flamegraph.pl: "frame;frame;frame <integer weight>".
      const match = /^([^\n]+) (\d+)$/.exec(line);
      expect(match, line).not.toBeNull();
      total += Number(match![2]);
    }
    expect(new Set(lines.map((line) => line.replace(/ \d+$/, ''))).size).toBe(lines.length);
    expect(total).toBe(document.moment.active_bytes);
  });

  it('classifies by a rules file instead of the built-in rules', () => {
    const builtIn = top([file, '--by', 'category']);
    expect(builtIn.rules).toBe('built-in');
    expect(builtIn.groups.map((g) => g.key)).toContain('gradients');
    const rules = join(tmp, 'rules.json');
    writeFileSync(
      rules,
      JSON.stringify({
        schema: 'allocscope.category-rules/1',
        rules: [{ category: 'activation', match: { frame: '.' } }],
      }),
    );
    const custom = top([file, '--by', 'category', '--rules', rules]);
    expect(custom.rules).toBe('rules.json');
    // Every allocation with a stack is an activation now; the rest stay unknown.
    expect(custom.groups.map((g) => g.key).sort()).toEqual(['activations', 'unknown']);
    expect(groupTotal(custom)).toBe(builtIn.moment.active_bytes);
  });

  it('refuses bad input with one line and exit status 2', () => {
    const rules = join(tmp, 'bad-rules.json');
    writeFileSync(
      rules,
      JSON.stringify({
        schema: 'allocscope.category-rules/1',
        rules: [{ category: 'weights', match: {} }],
      }),
    );
    const cases: [string[], RegExp][] = [
      [[file, '--grep', 'model('], /--grep: not a regular expression/],
      [[file, '--by', 'colour'], /--by/],
      [[file, '--rules', rules], /^allocscope: bad-rules\.json: rules\.0\.category/],
      [
        [file, '--rules', join(tmp, 'missing.json')],
        /^allocscope: missing\.json: cannot read this rules file: no such file/,
      ],
      [[file, '--moment', 'oom'], /has no OOM event/],
    ];
    for (const [args, message] of cases) {
      const run = runCli(['top', ...args]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
    }
  });

  it('prints a table by default', () => {
    const run = runCli(['top', file, '--limit', '3']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/cuda:0 at event \d+ \(the active peak\): 63\.5 GiB active/);
    expect(run.stdout).toMatch(/bytes +share +allocations +top user frame/);
    expect(run.stdout).toMatch(/\(\d+ more groups\)/);
  });
});
