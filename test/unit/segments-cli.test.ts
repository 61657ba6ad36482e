// `allocscope segments`: the figures it prints for the final moment equal those computed by
// CPython straight from the file's `segments` list (test/reference/final_segments_reference.py).

import { execFileSync } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { realSnapshotPath, realSnapshotPaths } from '../support/real-snapshots';

const DEMO = resolve(import.meta.dirname, '../../resources/demo-snapshot.pickle');
const FINAL_SEGMENTS_SCRIPT = resolve(
  import.meta.dirname,
  '../reference/final_segments_reference.py',
);

/**
 * Files whose final `segments` disagree with their trace (allocations the trace never frees are
 * free blocks in the file): only the segments themselves can match there.
 */
const INCONSISTENT = new Set(['drisspg_transformer_nuggets__test__data__mini_snapshot.pickle']);

type ReferenceBlock = [address: number, size: number, requested: number, state: string];

interface ReferenceSegment {
  address: number;
  total_size: number;
  blocks: ReferenceBlock[];
}

interface Figures {
  reserved: number;
  allocated: number;
  active: number;
  internal: number;
  external: number;
  largestFree: number;
  freeBlocks: number;
  segments: { address: number; size: number; allocated: number; free: number; largest: number }[];
}

/** The final state per device, the obvious way, from CPython's reading of the pickle. */
function referenceFigures(path: string): Map<number, Figures> {
  const output = execFileSync('python3', [FINAL_SEGMENTS_SCRIPT, path], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const byDevice = JSON.parse(output) as Record<string, ReferenceSegment[]>;
  const result = new Map<number, Figures>();
  for (const [device, segments] of Object.entries(byDevice)) {
    const figures: Figures = {
      reserved: 0,
      allocated: 0,
      active: 0,
      internal: 0,
      external: 0,
      largestFree: 0,
      freeBlocks: 0,
      segments: [],
    };
    for (const segment of segments) {
      figures.reserved += segment.total_size;
      const row = {
        address: segment.address,
        size: segment.total_size,
        allocated: 0,
        free: 0,
        largest: 0,
      };
      // The allocator merges neighbouring free blocks: a hole is a run of inactive blocks.
      let run = 0;
      const endRun = (): void => {
        if (run > 0) figures.freeBlocks++;
        row.largest = Math.max(row.largest, run);
        run = 0;
      };
      for (const [, size, requested, state] of segment.blocks) {
        if (state === 'inactive') {
          run += size;
          row.free += size;
          continue;
        }
        endRun();
        row.allocated += size;
        figures.active += requested;
      }
      endRun();
      figures.allocated += row.allocated;
      figures.external += row.free;
      figures.largestFree = Math.max(figures.largestFree, row.largest);
      figures.segments.push(row);
    }
    figures.internal = figures.allocated - figures.active;
    result.set(Number(device), figures);
  }
  return result;
}

/** Exact byte counts of a labelled line: "  reserved      78.4 GiB (84,202,749,952 B)  ...". */
function exactBytes(section: string, label: string): number {
  const match = new RegExp(`^\\s+${label}\\s+\\S+ \\S+ \\(([\\d,]+) B\\)`, 'm').exec(section);
  expect(match, `${label} in\n${section}`).not.toBeNull();
  return Number(match![1]!.replace(/,/g, ''));
}

function printedFigures(stdout: string): Map<number, { section: string; figures: Figures }> {
  const printed = new Map<number, { section: string; figures: Figures }>();
  const sections = stdout.split(/^(?=cuda:\d+: )/m).slice(1);
  for (const section of sections) {
    const device = Number(/^cuda:(\d+): /.exec(section)![1]);
    const segments = [...section.matchAll(/^\s+0x([0-9a-f]+)\s+(.*)$/gm)].map((match) => {
      const [size, allocated, free, largest] = [...match[2]!.matchAll(/\(([\d,]+) B\)/g)].map((m) =>
        Number(m[1]!.replace(/,/g, '')),
      );
      return {
        address: Number.parseInt(match[1]!, 16),
        size: size!,
        allocated: allocated!,
        free: free!,
        largest: largest!,
      };
    });
    const freeBlocks = /free blocks: (\d+)/.exec(section);
    printed.set(device, {
      section,
      figures: {
        reserved: exactBytes(section, 'reserved'),
        allocated: exactBytes(section, 'allocated \\+ pending free'),
        active: exactBytes(section, 'active'),
        internal: exactBytes(section, 'rounding'),
        external: exactBytes(section, 'cached free'),
        largestFree: exactBytes(section, 'largest free block'),
        freeBlocks: Number(freeBlocks?.[1] ?? NaN),
        segments,
      },
    });
  }
  return printed;
}

describe('allocscope segments', () => {
  describe.each([...realSnapshotPaths(), DEMO].map((path) => [basename(path), path]))(
    '%s',
    (name, path) => {
      it('prints the final state of every device as the file records it', () => {
        const run = runCli(['segments', path, '--moment', 'final', '--bytes']);
        expect(run.stderr).toBe('');
        expect(run.status).toBe(0);
        const printed = printedFigures(run.stdout);
        const reference = referenceFigures(path);
        for (const [device, expected] of reference) {
          const found = printed.get(device);
          expect(found, `device ${device}`).toBeDefined();
          expect(found!.section).toMatch(/^cuda:\d+: final state/);
          const segments = [...expected.segments].sort((a, b) => a.address - b.address);
          if (INCONSISTENT.has(name)) {
            expect(found!.figures.reserved).toBe(expected.reserved);
            expect(found!.figures.segments.map(({ address, size }) => [address, size])).toEqual(
              segments.map(({ address, size }) => [address, size]),
            );
            continue;
          }
          expect(found!.figures, `device ${device}`).toEqual({ ...expected, segments });
        }
        // Devices with a trace but no segments print an empty state.
        for (const [device, { figures }] of printed) {
          if (!reference.has(device)) expect(figures.reserved, `device ${device}`).toBe(0);
        }
      });
    },
  );

  it('shows another moment on request, and the legend of the block map', () => {
    const path = realSnapshotPath('Constructor-Sun');
    const run = runCli(['segments', path, '--device', '1', '--moment', 'oom']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^cuda:1: state after event 421 of 596, 8 segments/m);
    expect(run.stdout).not.toMatch(/^cuda:0:/m);
    expect(run.stdout).toMatch(/^map: 32 cells per segment/m);
    expect(run.stdout).toMatch(/^\s+0x[0-9a-f]+\s+.*\[[#.0-9p]{32}\]$/m);
    const before = runCli(['segments', path, '--device', '1', '--moment', '-1']);
    expect(before.stdout).toMatch(/^cuda:1: state before the first event/m);
  });

  it.each([
    [['--device', '5'], /device 5 is not in/],
    [['--moment', '99999'], /--moment 99999 is past the end of cuda:\d's trace/],
    [['--moment', 'later'], /--moment takes an event index/],
    [['--json'], /unknown option --json/],
  ])('bad input %j exits 2 with one line', (args, message) => {
    const run = runCli(['segments', realSnapshotPath('a0kuma'), ...args]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });
});
