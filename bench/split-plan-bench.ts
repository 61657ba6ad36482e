// Issue 25, step 1: what the split plan and the memo count cost beside a serial decode of the same
// bytes, in one process, side by side (medians of N runs, with the host's load). Built and run by
// hand until the parallel decode exists:
//   npx vite build --config bench/split-plan-bench.vite.config.ts
//   node --expose-gc out/split-bench/split-plan-bench.js FILE [RUNS] [PARTS]

import { readFileSync } from 'node:fs';
import { decodeSnapshot } from '../src/shared/snapshot/decode-snapshot';
import { indexFrames } from '../src/shared/pickle/frame-index';
import { countMemoized } from '../src/shared/pickle/opcode-scan';
import { planTraceSplit } from '../src/shared/snapshot/trace-split-plan';
import { decodeTracePart } from '../src/shared/snapshot/decode-trace-part';
import { Unpickler } from '../src/shared/pickle/unpickler';
import { StackInterner } from '../src/shared/snapshot/stack-interner';
import { TraceTableBuilder } from '../src/shared/snapshot/trace-table-builder';

/** The serial decoder over bytes[0..end) (no model built): rows. */
function decodeSerialUpTo(bytes: Uint8Array, end: number): number {
  const traceTable = new TraceTableBuilder(new StackInterner(), end / 24);
  const unpickler = new Unpickler({ interceptor: traceTable, flatDictConsumer: traceTable });
  for (let at = 0; at < end; at += 1 << 20) {
    unpickler.feed(bytes.subarray(at, Math.min(end, at + (1 << 20))));
    if (unpickler.done) break;
  }
  return traceTable.rows;
}
import { Op } from '../src/shared/pickle/opcodes';
import { memorySource } from '../src/shared/pickle/byte-source';
import { countMemoCheckpoints, opcodeEnd } from '../src/shared/pickle/opcode-scan';
import { ForeignMemo, type MemoPart } from '../src/shared/pickle/foreign-memo';

/**
 * References of bytes[from..to) to memo entries below `base` (made by earlier parts), split by
 * whether they fall before `prefixMemo` (the memo as of the first trace entry: keys, first
 * actions, frames of the segments) or after (objects another part made: the merge must patch them).
 */
function foreignReferences(
  bytes: Uint8Array,
  from: number,
  to: number,
  base: number,
  prefixMemo: number,
) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // What each memo entry is (the opcode that made it), for the entries of earlier parts.
  const kindOf = new Map<number, string>();
  {
    let memo = 0;
    let previous = -1;
    for (let pos = 0; pos < from && memo < base;) {
      const op = bytes[pos]!;
      if (op === Op.MEMOIZE) {
        if (memo >= prefixMemo)
          kindOf.set(
            memo,
            Op.EMPTY_DICT === previous
              ? 'dict'
              : Op.EMPTY_LIST === previous
                ? 'list'
                : previous === Op.SHORT_BINUNICODE || previous === Op.BINUNICODE
                  ? 'string'
                  : `op ${previous}`,
          );
        memo++;
      }
      const after = opcodeEnd(bytes, view, pos, bytes.length);
      if (after < 0) break;
      previous = op;
      pos = after;
    }
  }
  let prefix = 0;
  let other = 0;
  const otherDistinct = new Set<number>();
  for (let pos = from; pos < to;) {
    const op = bytes[pos]!;
    if (op === Op.BINGET || op === Op.LONG_BINGET) {
      const index = op === Op.BINGET ? bytes[pos + 1]! : view.getUint32(pos + 1, true);
      if (index < prefixMemo) prefix++;
      else if (index < base) {
        other++;
        otherDistinct.add(index);
      }
    }
    const after = opcodeEnd(bytes, view, pos, bytes.length);
    if (after < 0) break;
    pos = after;
  }
  const kinds = new Map<string, number>();
  for (const index of otherDistinct) {
    const kind = kindOf.get(index) ?? '?';
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return {
    prefix,
    other,
    otherIndexes: otherDistinct,
    otherDistinct: otherDistinct.size,
    kinds: [...kinds].map(([k, n]) => `${n} ${k}`).join(', '),
  };
}

const [path, runsText = '3', partsText = '2'] = process.argv.slice(2);
if (path === undefined) throw new Error('usage: split-plan-bench FILE [RUNS] [PARTS]');
const runs = Number(runsText);
const parts = Number(partsText);

function load(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed<T>(work: () => T | Promise<T>): Promise<[number, T]> {
  (globalThis as { gc?: () => void }).gc?.();
  const started = performance.now();
  const result = await work();
  return [(performance.now() - started) / 1000, result];
}

async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const bytes = new Uint8Array(readFileSync(path));
const mb = bytes.length / 1e6;
console.log(`${path}: ${mb.toFixed(1)} MB; load ${load()}`);
const rows = new Map<string, number[]>();
const note = (name: string, seconds: number) => {
  const list = rows.get(name) ?? [];
  list.push(seconds);
  rows.set(name, list);
};
for (let run = 0; run < runs; run++) {
  const [frameSeconds, frames] = await timed(() => indexFrames(bytes));
  note('index frames', frameSeconds);
  const [planSeconds, split] = await timed(() => planTraceSplit(bytes, parts));
  note(`plan ${parts} parts`, planSeconds);
  if (!('plan' in split)) throw new Error(split.reason);
  const starts = split.plan.starts;
  let memo = 0;
  const bases: number[] = [];
  for (let part = 0; part < starts.length; part++) {
    const [countSeconds, counted] = await timed(() =>
      countMemoized(bytes, starts[part]!, starts[part + 1] ?? bytes.length),
    );
    note(`count memo, part ${part}`, countSeconds);
    bases.push(memo);
    memo += counted.memoized;
  }
  const memoParts: MemoPart[] = [];
  let scannedBase = 0;
  for (let part = 0; part < starts.length; part++) {
    const from = starts[part]!;
    const [scanSeconds, scanned] = await timed(() =>
      countMemoCheckpoints(memorySource(bytes), from, starts[part + 1] ?? bytes.length),
    );
    note(`count memo with checkpoints, part ${part}`, scanSeconds);
    memoParts.push({ ...scanned, base: scannedBase, from });
    scannedBase += scanned.memoized;
  }
  if (run === 0) {
    const prefixMemo = countMemoized(bytes, 0, split.plan.firstActionKey).memoized;
    for (let part = 1; part < starts.length; part++) {
      const refs = foreignReferences(
        bytes,
        starts[part]!,
        starts[part + 1] ?? bytes.length,
        bases[part]!,
        prefixMemo,
      );
      const foreign = new ForeignMemo(bytes, memoParts);
      const [readSeconds, unread] = await timed(() => {
        let missing = 0;
        for (const index of refs.otherIndexes) if (foreign.get(index) === undefined) missing++;
        return missing;
      });
      console.log(
        `part ${part}: read its ${refs.otherDistinct} objects of other parts again in ${(readSeconds * 1000).toFixed(1)} ms (${unread} unreadable)`,
      );
      console.log(
        `part ${part}: memo base ${bases[part]}, references to the prefix memo (${prefixMemo} entries) ${refs.prefix}, ` +
          `to other parts' entries ${refs.other} (${refs.otherDistinct} distinct: ${refs.kinds}); prefix ${split.plan.firstActionKey} bytes`,
      );
    }
  }
  // The last part on its own, against the serial decoder's time for the same bytes (the whole
  // file less the bytes before the part), one after the other on this thread.
  const lastStart = starts[starts.length - 1]!;
  const [partSeconds] = await timed(() =>
    decodeTracePart(
      bytes,
      lastStart,
      bytes.length,
      bases[bases.length - 1]!,
      new ForeignMemo(bytes, memoParts),
    ),
  );
  note('last part alone', partSeconds);
  const [beforeSeconds] = await timed(() => decodeSerialUpTo(bytes, lastStart));
  note('serial up to last part', beforeSeconds);
  const [wholeSeconds] = await timed(() => decodeSerialUpTo(bytes, bytes.length));
  note('serial, no model', wholeSeconds);
  note('serial for last part', wholeSeconds - beforeSeconds);
  const [decodeSeconds, model] = await timed(() =>
    decodeSnapshot(chunksOf(bytes, 1 << 20), { totalBytes: bytes.length }),
  );
  note('serial decode', decodeSeconds);
  if (run === 0) {
    const rowsTotal = model.traces.reduce((sum, trace) => sum + trace.length, 0);
    console.log(
      `frames ${'payloadStarts' in frames ? frames.payloadStarts.length : frames.reason}, ` +
        `starts ${starts.join(' ')}, memo entries ${memo}, trace rows ${rowsTotal}`,
    );
  }
  console.log(`run ${run + 1} done; load ${load()}`);
}
for (const [name, seconds] of rows) {
  const m = median(seconds);
  console.log(
    `${name.padEnd(22)} median ${m.toFixed(3)} s  (${seconds.map((s) => s.toFixed(3)).join(', ')})` +
      (name.startsWith('count') || name.startsWith('plan') ? '' : `  ${(mb / m).toFixed(0)} MB/s`),
  );
}
console.log(`load ${load()}; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
