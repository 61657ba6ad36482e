// The CSV export (src/renderer/export/allocations-csv.ts) agrees with the independent Python
// reference on every real snapshot: every allocation listed, those alive at the peak exactly the
// reference's, times relative and absolute alike; and RFC 4180 quoting.

import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allocationsAliveAt } from '@shared/analysis/allocation-table';
import { stackLabel } from '@shared/analysis/user-frame';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { analyzeBytes, analyzeFile } from '../support/analyzed';
import { CSV_FORMULAS, csvFormulasSnapshot } from '../support/hostile-files';
import { TEST_FRAMES, TEST_STACKS, testDevice } from '../support/builders/analyzed-device';
import { realSnapshotPaths } from '../support/real-snapshots';
import { parseCsv } from '../support/csv';
import { referenceSummary } from '../support/summarize';
import {
  ALLOCATIONS_CSV_COLUMNS,
  allocationsCsvLines,
  buildAllocationsCsv,
  planAllocationsCsv,
} from '../../src/renderer/export/allocations-csv';
import { csvField, csvLine, toCsv } from '../../src/renderer/export/csv-format';
import type { Slicing } from '../../src/renderer/export/slicing';

/** The columns of numbers: written as numbers (a negative one too), never with a ' in front. */
const NUMERIC_CSV_COLUMNS = [
  'rank_at_moment',
  'size_bytes',
  'block_bytes',
  'stream',
  'start_event',
  'end_event',
  'start_ms_from_trace_start',
  'end_ms_from_trace_start',
  'start_time_us_epoch',
  'end_time_us_epoch',
  'lifetime_events',
  'stack_id',
] as const;

/** No pauses: the whole CSV in one go (what the page does in slices). */
const AT_ONCE: Slicing = { pause: async () => {}, now: () => 0, sliceMs: Infinity };

async function csvOf(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  moment: number | null,
): Promise<{ header: string[]; records: Record<string, string>[] }> {
  const text = await buildAllocationsCsv(snapshot, snapshot.devices[deviceIndex]!, moment, AT_ONCE);
  const [header, ...rows] = parseCsv(text);
  for (const row of rows) expect(row).toHaveLength(header!.length);
  return {
    header: header!,
    records: rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]!]))),
  };
}

describe('csvField (RFC 4180)', () => {
  it('quotes fields with quotes, commas and line breaks, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvField('')).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField(true)).toBe('true');
  });

  it('writes numbers in full, never in exponent form or as NaN', () => {
    expect(csvField(5308694528)).toBe('5308694528');
    expect(csvField(2 ** 53)).toBe('9007199254740992');
    expect(csvField(1.5)).toBe('1.5');
    expect(csvField(NaN)).toBe('');
    expect(csvField(0)).toBe('0');
  });

  it('ends every line with CRLF and round-trips through a strict reader', () => {
    const rows = [
      ['1', 'x,y', 'He said "no"', 'multi\r\nline', ''],
      ['2', '<module>', 'a <- b', ' spaced ', 'tail'],
    ];
    const text = toCsv(['a', 'b', 'c', 'd', 'e'], rows);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([['a', 'b', 'c', 'd', 'e'], ...rows]);
  });
});

describe('spreadsheet formulas (OWASP CSV injection)', () => {
  it("writes a text cell that a spreadsheet would run with a ' in front, quoted as needed", () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField("=cmd|' /C calc'!A0")).toBe("'=cmd|' /C calc'!A0");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-cmd')).toBe("'-cmd");
    expect(csvField('-5')).toBe("'-5");
    expect(csvField('@SUM(1)')).toBe("'@SUM(1)");
    expect(csvField('\t=1+1')).toBe("'\t=1+1");
    expect(csvField('\r=1+1')).toBe(`"'\r=1+1"`);
    // The full-width forms some spreadsheet programs read as the ASCII ones.
    expect(csvField('＝1+1')).toBe("'＝1+1");
    // Inside a cell they are text to every program.
    expect(csvField('a=1')).toBe('a=1');
    expect(csvField('train.py:1 f <- -cmd')).toBe('train.py:1 f <- -cmd');
  });

  it('writes numbers as numbers, negative ones too', () => {
    expect(csvField(-5)).toBe('-5');
    expect(csvField(-0.5)).toBe('-0.5');
    expect(csvLine([-1.5, 'x'], { decimals: new Map([[0, 3]]) })).toBe('-1.500,x\r\n');
  });

  it('leaves no text cell of a file with formula-like frames and metadata starting a formula', async () => {
    const snapshot = await analyzeBytes(csvFormulasSnapshot(), 'csv-formulas.pickle');
    const [header, ...rows] = parseCsv(
      await buildAllocationsCsv(snapshot, snapshot.devices[0]!, null, AT_ONCE),
    );
    const numeric = new Set(NUMERIC_CSV_COLUMNS.map((name) => header!.indexOf(name)));
    expect(header).toContain('user_metadata');
    expect(rows).toHaveLength(2 + CSV_FORMULAS.length);
    for (const row of rows)
      row.forEach((cell, i) => {
        if (numeric.has(i)) expect(cell).toMatch(/^(-?\d+(\.\d+)?)?$/);
        else expect(cell, header![i]).not.toMatch(/^[=+\-@\t\r＝＋－＠]/);
      });
    // Each formula is there, as text: its frame and its metadata.
    const metadata = rows.map((row) => row[header!.indexOf('user_metadata')]);
    for (const formula of CSV_FORMULAS) expect(metadata).toContain(`'${formula}`);
    const frames = rows.map((row) => row[header!.indexOf('top_user_frame')]);
    expect(frames).toContain(`'-cmd.py:4 -cmd`);
  });
});

describe('every allocation of a hand-made device', () => {
  const snapshot = {
    streams: [0, 0x55d1c0de],
    frames: TEST_FRAMES,
    stacks: TEST_STACKS,
  } as unknown as AnalyzedSnapshot;

  it('lists the rows alive at the moment first (the table’s order), then the rest', () => {
    const device = testDevice();
    const plan = planAllocationsCsv(device, 3);
    const alive = [...allocationsAliveAt(device.allocations, 3)];
    expect(alive).toEqual([0, 2]);
    expect([...plan.order]).toEqual([0, 2, 1]);
    const rows = parseCsv(allocationsCsvLines(snapshot, device, plan, 0, plan.order.length));
    const column = (name: (typeof ALLOCATIONS_CSV_COLUMNS)[number]): string[] =>
      rows.map((row) => row[ALLOCATIONS_CSV_COLUMNS.indexOf(name)]!);
    expect(column('rank_at_moment')).toEqual(['1', '2', '']);
    expect(column('alive_at_moment')).toEqual(['true', 'true', 'false']);
    expect(column('size_bytes')).toEqual(['1000', '512', '2048']);
    expect(column('stream')).toEqual(['0', '0', String(0x55d1c0de)]);
    // Made before the trace (no start), freed at event 3 (row 1), alive at the end (no end).
    expect(column('start_event')).toEqual(['', '2', '0']);
    expect(column('end_event')).toEqual(['', '', '3']);
    // time_us 5_000_000, 5_000_100, 5_001_000, 5_005_000: ms from the first entry.
    expect(column('start_time_us_epoch')).toEqual(['', '5001000', '5000000']);
    expect(column('start_ms_from_trace_start')).toEqual(['', '1.000', '0.000']);
    expect(column('end_time_us_epoch')).toEqual(['', '', '5005000']);
    expect(column('end_ms_from_trace_start')).toEqual(['', '', '5.000']);
    expect(column('top_user_frame')).toEqual(['', stackLabel(snapshot, 1)!, 'me/train.py:42 step']);
    expect(column('stack_id')).toEqual(['', '1', '0']);
    expect(column('user_frames')).toEqual([
      '',
      '',
      '/home/me/train.py:42 step <- /home/me/train.py:? <module>',
    ]);
  });

  it('builds the same document in slices, pausing between them', async () => {
    const device = testDevice();
    let clock = 0;
    let pauses = 0;
    // Every clock read advances 10 ms: a slice of 15 ms ends after every check.
    const slicing: Slicing = {
      pause: async () => {
        pauses++;
      },
      now: () => (clock += 10),
      sliceMs: 15,
    };
    const sliced = await buildAllocationsCsv(snapshot, device, 3, slicing);
    const whole = await buildAllocationsCsv(snapshot, device, 3, AT_ONCE);
    expect(sliced).toBe(whole);
    expect(pauses).toBeGreaterThan(0);
  });
});

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (_name, path) => {
  it('lists every allocation, as the independent reference counts them', async () => {
    const snapshot = await analyzeFile(path);
    const reference = referenceSummary(path, 1_000_000) as {
      warnings: string[];
      devices: {
        device: number;
        actions: Record<string, number>;
        unmatched_frees: number;
        active_bytes: { final: number; peak_event_index: number };
        largest_allocations_at_peak: { address: number; bytes: number }[];
      }[];
    };
    for (const [deviceIndex, device] of snapshot.devices.entries()) {
      const expected = reference.devices.find((d) => d.device === device.device)!;
      const peak = expected.active_bytes.peak_event_index;
      const { header, records } = await csvOf(snapshot, deviceIndex, peak);
      expect(header).toEqual([...ALLOCATIONS_CSV_COLUMNS]);

      // Every alloc entry of the trace, every free of an allocation made before it, and every
      // block alive through the whole trace.
      const fromTrace = records.filter((r) => r.start_event !== '');
      const freedBefore = records.filter((r) => r.start_event === '' && r.end_event !== '');
      expect(fromTrace.length).toBe(expected.actions['alloc'] ?? 0);
      expect(freedBefore.length).toBe(expected.unmatched_frees);
      const aliveAtEnd = records.filter((r) => r.end_event === '');
      // Where the file contradicts itself the reference raises its curves (and says so).
      const consistent = !reference.warnings.some((w) => w.startsWith(`device ${device.device}:`));
      if (consistent) {
        const bytes = aliveAtEnd.reduce((sum, r) => sum + Number(r.size_bytes), 0);
        expect(bytes).toBe(expected.active_bytes.final);
      }

      // Alive at the peak: exactly the reference's list, in its order (largest first).
      const alive = records.filter((r) => r.alive_at_moment === 'true');
      expect(records.slice(0, alive.length)).toEqual(alive);
      expect(alive.map((r) => [BigInt(r.address!), Number(r.size_bytes)])).toEqual(
        expected.largest_allocations_at_peak.map((a) => [BigInt(a.address), a.bytes]),
      );
      expect(alive.map((r) => Number(r.rank_at_moment))).toEqual(alive.map((_r, i) => i + 1));

      // Times: relative = absolute − the first entry's time_us, in ms.
      const first = device.timeUs?.[0] ?? null;
      for (const r of records) {
        for (const end of ['start', 'end'] as const) {
          const absolute = r[`${end}_time_us_epoch`]!;
          const relative = r[`${end}_ms_from_trace_start`]!;
          if (absolute === '' || first === null) {
            expect(relative).toBe('');
            continue;
          }
          expect(Number(relative)).toBeCloseTo((Number(absolute) - first) / 1000, 3);
        }
      }
    }
  });
});
