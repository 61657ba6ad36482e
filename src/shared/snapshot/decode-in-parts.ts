// A pickle decoded in parts (issue 25; docs/parallel-decode.md): the trace entries, nearly all of
// the bytes, are cut into parts at trace entries (trace-split-plan.ts); each later part decodes
// on its own (decode-trace-part.ts) with its memo numbered from the MEMOIZE opcodes before it;
// the spine, a serial decoder, decodes the first part and everything outside the parts, and at
// each later part's start takes the part's effects instead of its bytes: its rows, merged into
// its columns (their tables interned in the order a serial decode meets them), its memo slots,
// its stack. The model equals the serial decoder's, id for id. Anything unplanned (an error in
// any part, a state the plan did not assume) answers null: the caller decodes on one worker, so
// that neither a model nor an error message ever depends on the split.

import { ForeignMemo, type MemoPart } from '../pickle/foreign-memo';
import { MemoCode } from '../pickle/memo';
import { feedFromAhead, sourceOf, type ByteSource } from '../pickle/byte-source';
import {
  countMemoCheckpoints,
  countMemoCheckpointsAhead,
  type CountedRange,
  type MemoCheckpoints,
} from '../pickle/opcode-scan';
import { Unpickler } from '../pickle/unpickler';
import { decodeTracePart, decodeTracePartAhead, type TracePart } from './decode-trace-part';
import type { SnapshotModel } from './model';
import { buildSnapshotModel } from './snapshot-builder';
import { StackInterner } from './stack-interner';
import { TraceTableBuilder, type TraceRowsSoFar } from './trace-table-builder';
import { planTraceSplit } from './trace-split-plan';

const CHUNK_BYTES = 1 << 20;
const MIN_BYTES_PER_TRACE_ENTRY = 24;

/** Where each part begins and the memo index its own slots start at. */
export interface PartLayout {
  starts: number[];
  memoBases: number[];
  /** Each part's memo counted, for ForeignMemo (all but the last part). */
  memoParts: MemoPart[];
}

/**
 * The parts of `bytes` (a whole pickle in memory) for `parts` workers, or null where the file
 * cannot be cut (one frame, protocol 2-3, PUT opcodes, too few trace entries).
 */
export function layOutParts(
  bytes: Uint8Array | ByteSource,
  parts: number,
  fractions?: readonly number[],
): PartLayout | null {
  if (parts < 2) return null;
  const split = planTraceSplit(bytes, parts, fractions === undefined ? {} : { fractions });
  if (!('plan' in split) || split.plan.starts.length < 2) return null;
  const starts = split.plan.starts;
  const scans: PartScan[] = [];
  for (let part = 0; part + 1 < starts.length; part++) {
    const scan = scanPart(bytes, starts, part);
    if (scan === null) return null;
    scans.push(scan);
  }
  const memoParts = memoPartsOf(scans);
  const memoBases = [...memoParts.map((part) => part.base), memoBaseAfter(scans)];
  return { starts, memoBases, memoParts };
}

/** A part decoded, with the memo index its own slots start at; null: it could not be laid out. */
export interface PartOutcome {
  memoBase: number;
  part: TracePart;
}

/** Decodes part `part` (>= 1) of a layout on its own. */
export function decodePart(
  input: Uint8Array | ByteSource,
  layout: PartLayout,
  part: number,
): PartOutcome {
  const bytes = sourceOf(input);
  return {
    memoBase: layout.memoBases[part]!,
    part: decodeTracePart(
      bytes,
      layout.starts[part]!,
      layout.starts[part + 1] ?? bytes.size,
      layout.memoBases[part]!,
      new ForeignMemo(bytes, layout.memoParts),
    ),
  };
}

/** A part's memo scanned: its MEMOIZE opcodes counted, with checkpoints (see MemoPart). */
export type PartScan = CountedRange;

/**
 * The memo of part `part` of the parts beginning at `starts` (never the last), scanned; null when
 * it cannot be (the file then decodes on one worker). Worker k scans part k - 1, side by side with
 * the others: each later part needs the scans of all parts before its own.
 */
export function scanPart(
  bytes: Uint8Array | ByteSource,
  starts: readonly number[],
  part: number,
): PartScan | null {
  const from = starts[part]!;
  const to = starts[part + 1]!;
  return partScanOf(countMemoCheckpoints(sourceOf(bytes), from, to), from, to);
}

/** scanPart, its bytes read ahead where the source can (ByteSource.chunks: the page). */
export async function scanPartAhead(
  source: ByteSource,
  starts: readonly number[],
  part: number,
): Promise<PartScan | null> {
  const from = starts[part]!;
  const to = starts[part + 1]!;
  return partScanOf(await countMemoCheckpointsAhead(source, from, to), from, to);
}

function partScanOf(counted: MemoCheckpoints, from: number, to: number): PartScan | null {
  if (counted.stoppedAt !== to || counted.sawStop) return null;
  const { memoized, block, checkpoints, stoppedAt } = counted;
  return { from, memoized, block, checkpoints, stoppedAt };
}

/** The scans of parts 0..k-1 as ForeignMemo's parts, each with its base: what part k needs. */
export function memoPartsOf(scans: readonly PartScan[]): MemoPart[] {
  let base = 0;
  return scans.map((scan) => {
    const part = { ...scan, base };
    base += scan.memoized;
    return part;
  });
}

/** The first memo index after the parts scanned: the sum of their MEMOIZE opcodes. */
function memoBaseAfter(scans: readonly PartScan[]): number {
  return scans.reduce((sum, scan) => sum + scan.memoized, 0);
}

/**
 * Part `part` (>= 1), given the scans of every part before it; its bytes read ahead where the
 * source can (ByteSource.chunks: the page).
 */
export async function decodeScannedPart(
  input: Uint8Array | ByteSource,
  starts: readonly number[],
  part: number,
  scans: readonly PartScan[],
): Promise<PartOutcome> {
  const bytes = sourceOf(input);
  const before = scans.slice(0, part);
  const memoParts = memoPartsOf(before);
  const base = memoBaseAfter(before);
  const end = starts[part + 1] ?? bytes.size;
  const foreign = new ForeignMemo(bytes, memoParts);
  const decoded = await decodeTracePartAhead(bytes, starts[part]!, end, base, foreign);
  return { memoBase: base, part: decoded };
}

/** What the spine reports as it goes. */
export interface SpineReports {
  /** Where the spine is in the file (a part taken in: its end). */
  onProgress?: (bytesDecoded: number) => void;
  /** Its trace rows, once it starts (read between reports: the curves drawn as a file decodes). */
  onTraceRows?: (rows: TraceRowsSoFar) => void;
}

/**
 * The spine: the file decoded with the parts' effects taken in (see the header), each part awaited
 * where it begins, so that the spine decodes the first part while the others decode elsewhere.
 * Null: something was not as planned.
 */
export async function joinParts(
  input: Uint8Array | ByteSource,
  starts: readonly number[],
  parts: readonly (PartOutcome | null | Promise<PartOutcome | null>)[],
  reports: SpineReports = {},
): Promise<SnapshotModel | null> {
  const { onProgress } = reports;
  const source = sourceOf(input);
  const size = source.size;
  const stacks = new StackInterner();
  const traceTable = new TraceTableBuilder(stacks, size / MIN_BYTES_PER_TRACE_ENTRY);
  reports.onTraceRows?.(traceTable);
  const unpickler = new Unpickler({
    interceptor: traceTable,
    totalBytes: size,
    flatDictConsumer: traceTable,
  });
  const feedTo = (end: number): Promise<void> =>
    feedFromAhead(unpickler, source, unpickler.bytesDecoded, end, CHUNK_BYTES, () =>
      onProgress?.(unpickler.bytesDecoded),
    );
  try {
    for (let part = 1; part < starts.length; part++) {
      const start = starts[part]!;
      await feedTo(start);
      const outcome = await parts[part - 1]!;
      if (outcome === null) return null;
      const { part: decoded, memoBase } = outcome;
      const state = decoded.state;
      const tables = decoded.tables;
      if (state === null || tables === null || decoded.error !== null) return null;
      if (unpickler.bytesDecoded !== start) return null;
      if (unpickler.memoLength !== memoBase) return null;
      const mark = unpickler.partStartDepth();
      if (mark < 0 || !readsAsOwnerHolds(decoded, unpickler)) return null;
      const list = unpickler.endBatchForPart(mark, start);
      const stackIds = stacks.absorb(decoded.stacks);
      const remap = traceTable.absorb(tables, stackIds, list, state.lists);
      unpickler.takePart(state, mark, decoded.stoppedAt, decoded.memo, remap);
    }
    await feedTo(size);
    const root = unpickler.finish();
    return buildSnapshotModel({ root, pickleProtocol: unpickler.protocol, traceTable, stacks });
  } catch {
    return null;
  }
}

/**
 * Whether every object the part read again from the bytes is what its owner made of them: a
 * string the same string; a trace entry (consumed) or a slot the owner never filled is not what
 * a part may name (a serial decode refuses such a reference, so the whole file decodes on one
 * worker and says so). Frames lists and frame dicts are re-read from the same bytes by the same
 * rules and checked by the tests against the serial memo.
 */
function readsAsOwnerHolds(part: TracePart, spine: Unpickler): boolean {
  for (const [index, text] of part.foreignRead) {
    const code = spine.memoCode(index);
    if (code === MemoCode.consumed || code === MemoCode.empty) return false;
    if (text !== null && spine.memoValue(index) !== text) return false;
  }
  return true;
}

/** Decodes `bytes` in `parts` parts, one after another on this thread (tests, and a fallback). */
export async function decodeInParts(
  bytes: Uint8Array | ByteSource,
  parts: number,
  fractions?: readonly number[],
): Promise<SnapshotModel | null> {
  const layout = layOutParts(bytes, parts, fractions);
  if (layout === null) return null;
  const decoded: PartOutcome[] = [];
  for (let part = 1; part < layout.starts.length; part++) {
    decoded.push(decodePart(bytes, layout, part));
  }
  return joinParts(bytes, layout.starts, decoded);
}
