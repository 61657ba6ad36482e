import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../../generators/snapshot/generate-large-snapshot';
import { realSnapshotPath } from '../../../test/support/real-snapshots';
import { ForeignMemo, type MemoPart } from '../pickle/foreign-memo';
import { memorySource } from '../pickle/byte-source';
import { countMemoCheckpoints } from '../pickle/opcode-scan';
import { Unpickler } from '../pickle/unpickler';
import { decodeTracePart } from './decode-trace-part';
import { StackInterner, type PartStacks } from './stack-interner';
import { TraceTableBuilder, type PartTables } from './trace-table-builder';
import { planTraceSplit } from './trace-split-plan';

/** A serial decode's trace table and stacks after the bytes before `end` (the whole file: its length). */
function serialTable(bytes: Uint8Array, end: number) {
  const interner = new StackInterner();
  const traceTable = new TraceTableBuilder(interner);
  const unpickler = new Unpickler({ interceptor: traceTable, flatDictConsumer: traceTable });
  unpickler.feed(bytes.subarray(0, end));
  return { traceTable, stacks: { frames: interner.frames, stacks: interner.table() } };
}

type RowSource = Pick<
  PartTables,
  'action' | 'actionNames' | 'addr' | 'sizeBytes' | 'streams' | 'streamId' | 'timeUs' | 'stackId'
>;

/** Row `row` of a table in words no id depends on: what a merged model must say of it. */
function describeRow(
  { traceTable, stacks }: { traceTable: RowSource; stacks: PartStacks },
  row: number,
): string {
  const table = stacks.stacks;
  const stack = traceTable.stackId[row]!;
  const frames: string[] = [];
  if (stack >= 0) {
    for (let i = table.offsets[stack]!; i < table.offsets[stack + 1]!; i++) {
      const frame = table.frameIds[i]!;
      frames.push(
        `${stacks.frames.filename[frame]}:${stacks.frames.line[frame]}:${stacks.frames.name[frame]}`,
      );
    }
  }
  return [
    traceTable.actionNames[traceTable.action[row]!],
    traceTable.addr[row],
    traceTable.sizeBytes[row],
    traceTable.streams[traceTable.streamId[row]!],
    traceTable.timeUs[row],
    frames.join(' < '),
  ].join(' | ');
}

/** The rows at which the serial decode's trace lists end. */
function listEnds(traceTable: TraceTableBuilder): number[] {
  return [...traceTable.ranges.values()].map((range) => range.first + range.count);
}

/**
 * Decodes every later part of a plan of `parts` on its own and compares its rows with the serial
 * decode's rows from the part's first entry on.
 */
function expectPartsMatchSerial(bytes: Uint8Array, parts: number): number {
  const split = planTraceSplit(bytes, parts);
  if (!('plan' in split)) throw new Error(split.reason);
  const starts = split.plan.starts;
  const memoParts: MemoPart[] = [];
  let base = 0;
  for (let part = 0; part < starts.length; part++) {
    const from = starts[part]!;
    const counted = countMemoCheckpoints(
      memorySource(bytes),
      from,
      starts[part + 1] ?? bytes.length,
    );
    memoParts.push({ ...counted, base, from });
    base += counted.memoized;
  }
  const serial = serialTable(bytes, bytes.length);
  let compared = 0;
  for (let part = 1; part < starts.length; part++) {
    const start = starts[part]!;
    const end = starts[part + 1] ?? bytes.length;
    const firstRow = serialTable(bytes, start).traceTable.rows;
    const lastRow =
      part + 1 < starts.length ? serialTable(bytes, end).traceTable.rows : serial.traceTable.rows;
    const decoded = decodeTracePart(
      bytes,
      start,
      end,
      memoParts[part]!.base,
      new ForeignMemo(bytes, memoParts),
    );
    expect(decoded.error).toBeNull();
    const tables = decoded.tables!;
    const rows = tables.rows;
    if (!decoded.state!.listEnded) {
      expect(decoded.stoppedAt).toBe(end);
      expect(rows).toBe(lastRow - firstRow);
    } else {
      // The list of trace lists ended (its APPENDS or APPEND takes the lists, the part's own
      // among them, which the part does not hold): the spine decodes the rest. It stops at the
      // end of a trace list, never inside one, with only the later lists it began above its own.
      expect(decoded.stoppedAt).toBeLessThan(end);
      expect(decoded.state!.above.every((entry) => entry !== null)).toBe(true);
      expect(listEnds(serial.traceTable)).toContain(firstRow + rows);
    }
    expect(rows).toBeGreaterThan(0);
    for (let row = 0; row < rows; row++) {
      expect(describeRow({ traceTable: tables, stacks: decoded.stacks }, row)).toBe(
        describeRow(serial, firstRow + row),
      );
    }
    compared += rows;
  }
  return compared;
}

describe('decodeTracePart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'allocscope-part-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['Constructor-Sun', 'LINYUN', 'kkaitlyn111'])(
    'decodes each part of %s as the serial decoder decodes those entries',
    (prefix) => {
      const bytes = new Uint8Array(readFileSync(realSnapshotPath(prefix)));
      for (const parts of [2, 3, 7])
        expect(expectPartsMatchSerial(bytes, parts)).toBeGreaterThan(0);
    },
  );

  it('decodes each part of a generated snapshot of two devices', () => {
    const path = join(dir, 'generated.pickle');
    generateLargeSnapshot(path, 2_000_000, { seed: 11 });
    const bytes = new Uint8Array(readFileSync(path));
    for (const parts of [2, 3, 7]) expect(expectPartsMatchSerial(bytes, parts)).toBeGreaterThan(0);
  });
});
