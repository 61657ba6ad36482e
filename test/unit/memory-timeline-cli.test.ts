// Memory timelines through the built `allocscope` command: a timeline alone (summary, its JSON,
// top by category), a trace given its timeline (--memory-timeline), and bad timelines: exit 2,
// one line naming the timeline and what is wrong with it (docs/bad-input.md).

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/profiler');
const at = (name: string): string => join(FIXTURES, name);
const dir = mkdtempSync(join(tmpdir(), 'allocscope-timeline-'));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

interface Summary {
  source?: string;
  devices: {
    active_bytes: { peak: number };
    categories_at_peak?: { category: string; bytes: number; allocations: number }[];
  }[];
}

function summaryOf(args: string[]): Summary {
  const run = runCli(['summary', ...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as Summary;
}

/** The raw tuples summed per category in file order: the levels where their total is highest. */
function rawLevelsAtPeak(run: string): number[] {
  const tuples = JSON.parse(
    gunzipSync(readFileSync(at(`${run}.memory-timeline.raw.json.gz`))).toString(),
  ) as number[][];
  const levels = new Array<number>(8).fill(0);
  let best = { total: -1, levels };
  for (const [, , bytes, category] of tuples) {
    levels[category!]! += bytes!;
    const total = levels.reduce((a, b) => a + b, 0);
    if (total > best.total) best = { total, levels: [...levels] };
  }
  return best.levels;
}

describe('allocscope on a memory timeline', () => {
  it('summary: both forms give the same bytes by category at the peak, exact bytes beside', () => {
    const texts = ['json', 'raw.json.gz'].map((form) => {
      const run = runCli(['summary', at(`dataloader.memory-timeline.${form}`), '--bytes']);
      expect(run.status).toBe(0);
      expect(run.stdout.split('\n')[0]).toMatch(/ {2}PyTorch memory timeline$/);
      const start = run.stdout.indexOf("by PyTorch's category");
      return run.stdout
        .slice(start)
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/ {2,}/).slice(0, 2).join(' '));
    });
    expect(texts[0]).toEqual(texts[1]);
    expect(texts[0]).toContain('INPUT 74.3 KiB (76,032 B)');
  });

  it.each(['clean', 'leak', 'dataloader'])(
    '%s: summary --json categories_at_peak are the raw tuples summed, from both forms',
    (run) => {
      const expected = rawLevelsAtPeak(run);
      for (const form of ['json', 'raw.json.gz']) {
        const document = summaryOf([at(`${run}.memory-timeline.${form}`)]);
        expect(document.source).toBe('memory_timeline');
        const [cpu] = document.devices;
        expect(cpu!.categories_at_peak!.map((row) => row.bytes)).toEqual(expected);
        expect(cpu!.active_bytes.peak).toBe(expected.reduce((a, b) => a + b, 0));
      }
    },
  );

  it("top --by category on the leak's trace given its timeline: the 6 MiB are PyTorch's unknown", () => {
    const run = runCli([
      'top',
      at('leak.pt.trace.json.gz'),
      '--memory-timeline',
      at('leak.memory-timeline.raw.json.gz'),
      '--by',
      'category',
      '--moment',
      'final',
      '--json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as { groups: { key: string; bytes: number }[] };
    expect(document.groups.find((group) => group.key === 'unknown')?.bytes).toBe(6 * 1_048_576);
  });

  it("steps --by category on the leak's trace given its timeline: the suspect is PyTorch's unknown, 1 MiB a step", () => {
    const run = runCli([
      'steps',
      at('leak.pt.trace.json.gz'),
      '--memory-timeline',
      at('leak.memory-timeline.raw.json.gz'),
      '--by',
      'category',
      '--json',
    ]);
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as {
      suspects: { key: string; bytes_per_step: number; steps_grown: number }[];
    };
    expect(document.suspects[0]).toMatchObject({
      key: 'unknown',
      bytes_per_step: 1_048_576,
      steps_grown: 6,
    });
  });

  it('summary of a trace given its timeline: every byte at the peak has a category', () => {
    const document = summaryOf([
      at('clean.pt.trace.json.gz'),
      '--memory-timeline',
      at('clean.memory-timeline.raw.json.gz'),
    ]);
    const [cpu] = document.devices;
    const rows = cpu!.categories_at_peak!;
    expect(rows.map((row) => row.category)).not.toContain('(no category)');
    expect(rows.reduce((sum, row) => sum + row.bytes, 0)).toBe(cpu!.active_bytes.peak);
  });
});

const levels = (rows: number[][]): string =>
  JSON.stringify([rows.map((_, i) => 1_800_000_000_000_000 + i), rows]);
const ROW = [0, 10, 0, 0, 0, 0, 0, 0, 0];

const badTimelines: [string, string, RegExp][] = [
  [
    'truncated',
    file('cut.json', levels([ROW, ROW]).slice(0, 40)),
    /^allocscope: cut\.json: .*(ends|cut|truncated)/i,
  ],
  [
    'a sizes row of the wrong length',
    file('short.json', levels([ROW, [0, 1, 2]])),
    /^allocscope: short\.json: not a PyTorch memory timeline of a known shape: \[1\]\[1\] holds 3 numbers; expected the 9 of a sizes row/,
  ],
  [
    'times and sizes of different lengths',
    file(
      'lengths.json',
      JSON.stringify([
        [1, 2, 3],
        [ROW, ROW],
      ]),
    ),
    /^allocscope: lengths\.json: not a PyTorch memory timeline of a known shape: 3 times but 2 sizes rows/,
  ],
  [
    'NaN (as Python writes it)',
    file('nan.json', '[[1, 2], [[0, NaN, 0, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0, 0, 0]]]'),
    /^allocscope: nan\.json: not valid JSON: expected a value, found 'N' in \[1\]\[0\]\[1\]/,
  ],
  [
    'a raw tuple of three numbers',
    file('tuple.raw.json', '[[-1, 1, 512, 0], [5, 2, 8]]'),
    /^allocscope: tuple\.raw\.json: not a PyTorch memory timeline of a known shape: \[1\] holds 3 numbers; expected a \(t_ns, action, bytes, category\) tuple/,
  ],
  [
    'a category that is none of the eight',
    file('category.raw.json', '[[-1, 1, 512, 0], [5, 2, 8, 9]]'),
    /\[1\] holds category 9; expected a category 0\.\.7/,
  ],
  [
    'a level that falls below zero',
    file('negative.raw.json', '[[5, 2, 512, 0], [6, 4, -1024, 0]]'),
    /PARAMETER falls below 0 bytes/,
  ],
];

describe('bad memory timelines: exit 2, one line naming the file and the problem', () => {
  it.each(badTimelines)('%s, opened alone', (_name, path, expected) => {
    const run = runCli(['summary', path]);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(2);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(expected);
  });

  it.each(badTimelines)('%s, beside a trace', (_name, path, expected) => {
    const run = runCli(['summary', at('clean.pt.trace.json.gz'), '--memory-timeline', path]);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(2);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(expected);
  });

  it.each([
    [
      "another run's timeline",
      'clean.pt.trace.json.gz',
      'leak.memory-timeline.json',
      /^allocscope: leak\.memory-timeline\.json: not a memory timeline of this trace's run: its times \(2026-11-28T20:39:15\.972485Z to .*\) do not overlap the trace's memory events \(2026-11-28T20:39:02/,
    ],
    [
      'a trace given as the timeline',
      'clean.pt.trace.json.gz',
      'leak.pt.trace.json.gz',
      /^allocscope: leak\.pt\.trace\.json\.gz: not a memory timeline \(torch\.profiler's export_memory_timeline/,
    ],
    [
      'a timeline beside a timeline',
      'clean.memory-timeline.json',
      'clean.memory-timeline.raw.json.gz',
      /^allocscope: .*--memory-timeline gives the allocations of a PyTorch profiler trace their categories; clean\.memory-timeline\.json is a PyTorch memory timeline, not a trace$/,
    ],
  ])('%s', (_name, trace, timeline, expected) => {
    const run = runCli(['summary', at(trace), '--memory-timeline', at(timeline)]);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(2);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(expected);
  });
});
