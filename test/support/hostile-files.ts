// Hand-made hostile and broken files, one or more for each class of defect the fuzz campaign of
// issue 8 found. The CLI tests and the web end-to-end tests open every one of them and expect
// either a clean refusal (one line naming what is wrong) or the snapshot opened with a warning,
// in bounded time and memory. Files are built here, never committed: some are tens of MB.

import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { Op } from '../../src/shared/pickle/opcodes';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import { snapshotToJson } from '../../generators/snapshot/json-form';
import { gzipOfRepeats, repeatedTrace } from './gzip-bomb';
import {
  pyFloat,
  tuple,
  type PickleDict,
  type PickleValue,
} from '../../generators/pickle/pickle-values';
import { LABEL_AND_METADATA_FILES } from './hostile-labels';
import { ascii, concat } from './bytes';

export interface HostileFile {
  /** File name (its extension matters to nobody: the decoder sniffs the bytes). */
  name: string;
  /**
   * Which class it stands for: 1-12 issue 8's; 300 + N item N of round 3 (issue 20), e.g. 301 for
   * its item 1; 314 what that round's own campaign found.
   */
  defectClass: number;
  /** What it is, for test names. */
  description: string;
  bytes: () => Uint8Array;
  /**
   * The same bytes in pieces, for a file too big to build whole where a child's memory is
   * measured: a child process starts with its parent's resident memory (writeHostileFile).
   */
  chunks?: () => Iterable<Uint8Array>;
  /**
   * A refusal whose message matches, an opened snapshot with a warning that matches, or one that
   * opens cleanly (a valid file that used to cost too much).
   */
  expect: { refused: RegExp } | { warning: RegExp } | { opens: 'cleanly' };
}

const MiB = 1 << 20;
const BASE = 0x7f0000000000;

const frame = { filename: 'train.py', line: 62, name: 'forward' };

/** A small consistent snapshot of one device: one segment of 2 MiB, one live 1 MB block. */
export function tinySnapshot(
  patch: (snapshot: Record<string, unknown>) => void = () => {},
): Uint8Array {
  return dumpToBytes(tinySnapshotValue(patch) as unknown as PickleValue);
}

/** tinySnapshot in the JSON form (what pytorch.org/memory_viz also accepts). */
export function tinyJsonSnapshot(
  patch: (snapshot: Record<string, unknown>) => void = () => {},
): Uint8Array {
  return ascii(snapshotToJson(tinySnapshotValue(patch) as unknown as PickleValue));
}

/** The value tinySnapshot pickles, after `patch`. */
function tinySnapshotValue(patch: (snapshot: Record<string, unknown>) => void): object {
  const stack = [frame];
  const snapshot: Record<string, unknown> = {
    segments: [
      {
        device: 0,
        address: BASE,
        total_size: 2 * MiB,
        allocated_size: MiB,
        active_size: MiB,
        requested_size: 1_000_000,
        stream: 0,
        segment_type: 'large',
        segment_pool_id: tuple(0, 0),
        is_expandable: false,
        frames: [],
        blocks: [
          {
            address: BASE,
            size: MiB,
            requested_size: 1_000_000,
            state: 'active_allocated',
            frames: stack,
          },
          { address: BASE + MiB, size: MiB, requested_size: 0, state: 'inactive', frames: [] },
        ],
      },
    ],
    device_traces: [
      [
        {
          action: 'segment_alloc',
          addr: BASE,
          size: 2 * MiB,
          stream: 0,
          time_us: 1_000,
          frames: stack,
        },
        { action: 'alloc', addr: BASE, size: 1_000_000, stream: 0, time_us: 1_001, frames: stack },
        {
          action: 'alloc',
          addr: BASE + MiB,
          size: 500_000,
          stream: 0,
          time_us: 1_002,
          frames: stack,
        },
        {
          action: 'free_requested',
          addr: BASE + MiB,
          size: 500_000,
          stream: 0,
          time_us: 1_003,
          frames: stack,
        },
        {
          action: 'free_completed',
          addr: BASE + MiB,
          size: 500_000,
          stream: 0,
          time_us: 1_004,
          frames: stack,
        },
      ],
    ],
    allocator_settings: { expandable_segments: false, max_split_size: -1 },
  };
  patch(snapshot);
  return snapshot;
}

function segmentsOf(snapshot: Record<string, unknown>): Record<string, unknown>[] {
  return snapshot.segments as Record<string, unknown>[];
}
function blocksOf(snapshot: Record<string, unknown>): Record<string, unknown>[] {
  return segmentsOf(snapshot)[0]!.blocks as Record<string, unknown>[];
}
function traceOf(snapshot: Record<string, unknown>): Record<string, unknown>[] {
  return (snapshot.device_traces as Record<string, unknown>[][])[0]!;
}

/** Raw pickle bytes: PROTO 4, the given body, STOP. */
function rawPickle(...parts: (number | number[] | Uint8Array)[]): Uint8Array {
  const bytes: number[] = [Op.PROTO, 4];
  for (const part of parts) {
    if (typeof part === 'number') bytes.push(part);
    else bytes.push(...part);
  }
  return Uint8Array.from(bytes);
}

function u32(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
}

/** MARK followed by `count` NONE opcodes (never closed). */
function markAndNones(count: number): Uint8Array {
  const bytes = new Uint8Array(3 + count);
  bytes.set([Op.PROTO, 4, Op.MARK]);
  bytes.fill(Op.NONE, 3);
  return bytes;
}

/**
 * Round 3, item 1: a list (PROTO, EMPTY_LIST) filled by `batches` times MARK, 100,000 NONE,
 * APPENDS: one item per byte of file, no container beyond the first. The 137 KB gzip is
 * 1,370 batches; any number past 10 is refused at the same byte.
 */
export function noneListBomb(batches: number): Uint8Array {
  const batch = 100_002;
  const bytes = new Uint8Array(3 + batches * batch + 1);
  bytes.set([Op.PROTO, 4, Op.EMPTY_LIST]);
  for (let i = 0; i < batches; i++) {
    const at = 3 + i * batch;
    bytes[at] = Op.MARK;
    bytes.fill(Op.NONE, at + 1, at + batch - 1);
    bytes[at + batch - 1] = Op.APPENDS;
  }
  bytes[bytes.length - 1] = Op.STOP;
  return bytes;
}

/** A trace entry that changes nothing: one per device list. */
const SNAPSHOT_ENTRY = { action: 'snapshot', addr: 0, size: 0, stream: 0, time_us: 1_000 };

function htmlPage(pickle: Uint8Array, before = ''): Uint8Array {
  const head = new TextEncoder().encode(
    `<!DOCTYPE html>\n<html><head>${before}</head><body><script type="module">\nconst local_files = [{"name": "snapshot.pickle", "base64": "`,
  );
  const tail = new TextEncoder().encode('"}];\n</script></body></html>\n');
  return concat(head, new TextEncoder().encode(Buffer.from(pickle).toString('base64')), tail);
}

/**
 * `{'device_traces': [[{'action': 'snapshot'` as CPython writes it, left open: memo 0 the top
 * dict, 1 the key, 2 and 3 the lists, 4 the entry, 5 and 6 its key and value.
 */
const FIRST_TRACE_ENTRY_OPENED = [
  Op.EMPTY_DICT,
  Op.MEMOIZE,
  Op.SHORT_BINUNICODE,
  13,
  ...ascii('device_traces'),
  Op.MEMOIZE,
  Op.EMPTY_LIST,
  Op.MEMOIZE,
  Op.EMPTY_LIST,
  Op.MEMOIZE,
  Op.EMPTY_DICT,
  Op.MEMOIZE,
  Op.MARK,
  Op.SHORT_BINUNICODE,
  6,
  ...ascii('action'),
  Op.MEMOIZE,
  Op.SHORT_BINUNICODE,
  8,
  ...ascii('snapshot'),
  Op.MEMOIZE,
];

export const HOSTILE_FILES: readonly HostileFile[] = [
  // 1. A crash: the VM's stack grown without bound.
  {
    name: 'mark-nones.pickle',
    defectClass: 1,
    description: 'MARK followed by 20 M NONE opcodes',
    bytes: () => markAndNones(20_000_000),
    expect: { refused: /more than [\d,]+ values on the pickle stack/ },
  },
  {
    name: 'mark-nones.pickle.gz',
    defectClass: 1,
    description: 'MARK followed by 20 M NONE opcodes, gzip (a 20 KB file)',
    bytes: () => gzipSync(markAndNones(20_000_000), { level: 9 }),
    expect: { refused: /more than [\d,]+ values on the pickle stack/ },
  },
  {
    name: 'mark-nones.html',
    defectClass: 1,
    description: 'the HTML page of _memory_viz with 20 M NONE opcodes inside',
    bytes: () => htmlPage(markAndNones(20_000_000)),
    expect: { refused: /more than [\d,]+ values on the pickle stack/ },
  },
  // 2. A declared length the file cannot hold; a long payload gathered chunk by chunk.
  {
    name: 'binunicode8-1tib.pickle',
    defectClass: 2,
    description: 'BINUNICODE8 declaring 2^40 bytes, followed by 8 MB',
    bytes: () => {
      const header = rawPickle(Op.BINUNICODE8, [0, 0, 0, 0, 0, 1, 0, 0]);
      return concat(header, new Uint8Array(8 * MiB).fill(0x61));
    },
    expect: { refused: /declares a string of 1,099,511,627,776 bytes/ },
  },
  {
    name: 'long-string.pickle',
    defectClass: 2,
    description: 'a valid snapshot whose user_metadata is a 40 MB string',
    bytes: () =>
      tinySnapshot((snapshot) => {
        traceOf(snapshot)[1]!.user_metadata = 'x'.repeat(40 * MiB);
      }),
    expect: { opens: 'cleanly' },
  },
  // 3. Memo index ladders.
  {
    name: 'memo-ladder.pickle',
    defectClass: 3,
    description: 'LONG_BINPUT indices stepping by 1,000,000',
    bytes: () => {
      const parts: number[] = [Op.EMPTY_LIST];
      for (let i = 0; i < 2000; i++) parts.push(Op.LONG_BINPUT, ...u32(i * 1_000_000));
      return rawPickle(parts, Op.STOP);
    },
    expect: { refused: /memo index 1,000,000 skips ahead/ },
  },
  {
    name: 'memo-get-2-31.pickle',
    defectClass: 3,
    description: 'a trace entry whose frames list names memo entry 2^31',
    bytes: () => {
      return rawPickle(
        ...FIRST_TRACE_ENTRY_OPENED,
        Op.SHORT_BINUNICODE,
        6,
        ...ascii('frames'),
        Op.MEMOIZE,
        Op.EMPTY_LIST,
        Op.MEMOIZE,
        Op.MARK,
        Op.LONG_BINGET,
        ...u32(2 ** 31),
        Op.LONG_BINGET,
        ...u32(2 ** 31),
        Op.APPENDS,
        Op.SETITEMS,
        Op.APPEND,
        Op.APPEND,
        Op.SETITEM,
        Op.STOP,
      );
    },
    expect: { refused: /memo entry 2,147,483,648 is read before it was written/ },
  },
  // 4. Sharing bombs.
  {
    name: 'shared-segment.pickle',
    defectClass: 4,
    description: 'a segments list naming one 1,000-block segment 10,000 times',
    bytes: () =>
      tinySnapshot((snapshot) => {
        const segment = segmentsOf(snapshot)[0]!;
        const blocks: Record<string, unknown>[] = [];
        for (let i = 0; i < 1000; i++) {
          blocks.push({
            address: BASE + i * 2048,
            size: 2048,
            requested_size: 2048,
            state: 'inactive',
            frames: [],
          });
        }
        segment.blocks = blocks;
        segment.total_size = 2048 * 1000;
        snapshot.segments = new Array(10_000).fill(segment);
      }),
    expect: { refused: /segments\[1\] is the same object as segments\[0\]/ },
  },
  {
    name: 'shared-trace.pickle',
    defectClass: 4,
    description: 'device_traces naming one trace list 10,000 times',
    bytes: () =>
      tinySnapshot((snapshot) => {
        snapshot.device_traces = new Array(10_000).fill(traceOf(snapshot));
      }),
    expect: { refused: /device_traces\[1\] is the same list as device_traces\[0\]/ },
  },
  // 5. Huge lists of empty or wrong records.
  {
    name: 'million-empty-segments.pickle.gz',
    defectClass: 5,
    description: '10^6 empty dicts as segments (gzip)',
    bytes: () =>
      gzipSync(
        tinySnapshot((snapshot) => {
          snapshot.segments = Array.from({ length: 1_000_000 }, () => ({}));
        }),
      ),
    expect: { refused: /more lists, dicts and tuples than a memory snapshot holds/ },
  },
  {
    name: 'empty-segments.pickle.gz',
    defectClass: 5,
    description: '200,000 empty dicts as segments (gzip): refused at the first',
    bytes: () =>
      gzipSync(
        tinySnapshot((snapshot) => {
          snapshot.segments = Array.from({ length: 200_000 }, () => ({}));
        }),
      ),
    expect: { refused: /segments\[0\]\.device: expected a device index, found nothing/ },
  },
  // 6. HTML read whole before looking for the snapshot.
  {
    name: 'big-page.html',
    defectClass: 6,
    description: 'a 64 MB HTML page without an embedded snapshot',
    bytes: () => {
      const page = new Uint8Array(64 * MiB).fill(0x20);
      page.set(ascii('<!doctype html><html><body>'), 0);
      return page;
    },
    expect: { refused: /HTML page without an embedded snapshot/ },
  },
  // 7. Internal errors shown to the user.
  {
    name: 'frames-name-a-trace-entry.pickle',
    defectClass: 7,
    description: 'a frames list that references a trace entry',
    bytes: () =>
      // [{'action': 'alloc', ..., 'frames': [<the entry itself, memo 3>]}]: hand-made.
      rawPickle(
        ...FIRST_TRACE_ENTRY_OPENED,
        Op.SETITEMS,
        Op.APPEND,
        Op.EMPTY_DICT,
        Op.MEMOIZE,
        Op.MARK,
        Op.BINGET,
        5,
        Op.BINGET,
        6,
        Op.SHORT_BINUNICODE,
        6,
        ...ascii('frames'),
        Op.MEMOIZE,
        Op.EMPTY_LIST,
        Op.MEMOIZE,
        Op.MARK,
        Op.BINGET,
        4,
        Op.BINGET,
        4,
        Op.APPENDS,
        Op.SETITEMS,
        Op.APPEND,
        Op.APPEND,
        Op.SETITEM,
        Op.STOP,
      ),
    expect: { refused: /a trace entry is referenced again|stack frame is a trace entry/ },
  },
  {
    name: 'list-as-dict-key.pickle',
    defectClass: 7,
    description: 'a self-referencing list used as a dict key',
    bytes: () =>
      rawPickle(
        Op.EMPTY_DICT,
        Op.MEMOIZE,
        Op.EMPTY_LIST,
        Op.MEMOIZE,
        Op.BINGET,
        1,
        Op.APPEND,
        Op.NONE,
        Op.SETITEM,
        Op.STOP,
      ),
    expect: { refused: /a dict key that is a list/ },
  },
  {
    name: 'deep-marks.pickle',
    defectClass: 7,
    description: '1,000,000 nested MARKs closed by LIST (a list nested 1,000,000 deep)',
    bytes: () => {
      const depth = 1_000_000;
      return concat(
        rawPickle(),
        new Uint8Array(depth).fill(Op.MARK),
        new Uint8Array(depth).fill(Op.LIST),
        Uint8Array.from([Op.STOP]),
      );
    },
    expect: { refused: /nested more than [\d,]+ levels deep/ },
  },
  {
    name: 'deep-settings.pickle',
    defectClass: 7,
    description: 'allocator_settings holding a list nested 200,000 deep (EMPTY_LIST and APPEND)',
    bytes: () => {
      // Far deeper than any recursive walk (JSON, structured clone, zod) survives.
      const depth = 200_000;
      return concat(
        rawPickle(
          Op.EMPTY_DICT,
          Op.MARK,
          Op.SHORT_BINUNICODE,
          8,
          ...ascii('segments'),
          Op.EMPTY_LIST,
          Op.SHORT_BINUNICODE,
          13,
          ...ascii('device_traces'),
          Op.EMPTY_LIST,
          Op.SHORT_BINUNICODE,
          18,
          ...ascii('allocator_settings'),
          Op.EMPTY_DICT,
          Op.SHORT_BINUNICODE,
          4,
          ...ascii('deep'),
        ),
        new Uint8Array(depth).fill(Op.EMPTY_LIST),
        new Uint8Array(depth - 1).fill(Op.APPEND),
        Uint8Array.from([Op.SETITEM, Op.SETITEMS, Op.STOP]),
      );
    },
    expect: { warning: /allocator_settings\.deep/ },
  },
  {
    name: 'segment-without-total-size.pickle',
    defectClass: 7,
    description: 'a segment without total_size',
    bytes: () =>
      tinySnapshot((snapshot) => {
        delete segmentsOf(snapshot)[0]!.total_size;
      }),
    expect: { refused: /segments\[0\]\.total_size: expected a byte count, found nothing/ },
  },
  // 8. A verdict that depends on where chunks fall: a frames list standing in for a frame.
  {
    name: 'frames-list-as-frame.pickle',
    defectClass: 8,
    description: 'a stack whose frame is itself a frames list',
    bytes: () =>
      tinySnapshot((snapshot) => {
        const inner = [frame];
        const trace = traceOf(snapshot);
        trace[1]!.frames = inner;
        trace[2]!.frames = [inner];
      }),
    expect: { refused: /a stack frame is a list, not a dict/ },
  },
  // 9. Numbers that cannot be bytes; inconsistent but possible content.
  {
    name: 'negative-total-size.pickle',
    defectClass: 9,
    description: 'a segment with a negative total_size',
    bytes: () => tinySnapshot((snapshot) => void (segmentsOf(snapshot)[0]!.total_size = -2 * MiB)),
    expect: { refused: /segments\[0\]\.total_size: -2,097,152 is not a byte count/ },
  },
  {
    name: 'negative-block-size.pickle',
    defectClass: 9,
    description: 'a block with a negative size',
    bytes: () => tinySnapshot((snapshot) => void (blocksOf(snapshot)[1]!.size = -5)),
    expect: { refused: /segments\[0\]\.blocks\[1\]\.size: -5 is not a byte count/ },
  },
  {
    name: 'negative-requested-size.pickle',
    defectClass: 9,
    description: 'a block with a negative requested_size',
    bytes: () => tinySnapshot((snapshot) => void (blocksOf(snapshot)[0]!.requested_size = -1)),
    expect: { refused: /segments\[0\]\.blocks\[0\]\.requested_size: -1 is not a byte count/ },
  },
  {
    name: 'nan-trace-size.pickle',
    defectClass: 9,
    description: 'a trace entry whose size is NaN',
    bytes: () =>
      tinySnapshot((snapshot) => void (traceOf(snapshot)[1]!.size = pyFloat(Number.NaN))),
    expect: { refused: /a trace entry's 'size': NaN is not a byte count \(at byte \d+\)/ },
  },
  {
    name: 'negative-oom.pickle',
    defectClass: 9,
    description: 'an OOM entry with a negative size and device_free',
    bytes: () =>
      tinySnapshot((snapshot) => {
        traceOf(snapshot).push({
          action: 'oom',
          size: -4096,
          device_free: -1,
          stream: 0,
          time_us: 1_005,
        });
      }),
    expect: { refused: /a trace entry's 'size': -4,096 is not a byte count \(at byte \d+\)/ },
  },
  {
    name: 'pending-free-without-completion.pickle',
    defectClass: 9,
    description: 'a pending free whose trace has no free_completed at all',
    bytes: () =>
      tinySnapshot((snapshot) => {
        blocksOf(snapshot)[0]!.state = 'active_pending_free';
        const trace = traceOf(snapshot);
        trace.splice(4, 1);
        trace.push({
          action: 'free_requested',
          addr: BASE,
          size: 1_000_000,
          stream: 0,
          time_us: 1_006,
          frames: [frame],
        });
      }),
    expect: { warning: /freed in the trace and not allocated again/ },
  },
  {
    name: 'overlapping-blocks.pickle',
    defectClass: 9,
    description: 'two blocks that overlap',
    bytes: () => tinySnapshot((snapshot) => void (blocksOf(snapshot)[1]!.address = BASE + MiB / 2)),
    expect: { warning: /overlap/ },
  },
  {
    name: 'block-past-segment.pickle',
    defectClass: 9,
    description: 'a block larger than its segment',
    bytes: () => tinySnapshot((snapshot) => void (blocksOf(snapshot)[1]!.size = 8 * MiB)),
    expect: { warning: /past the end of its segment/ },
  },
  // 10. Code loading at protocols 0 and 1.
  {
    name: 'protocol0-global.pickle',
    defectClass: 10,
    description: 'a protocol 0 pickle that calls os.system (GLOBAL, REDUCE)',
    bytes: () => ascii("cos\nsystem\n(S'true'\ntR."),
    expect: { refused: /asks to load Python code \(opcode GLOBAL at byte 0\)/ },
  },
  {
    name: 'protocol0-inst.pickle',
    defectClass: 10,
    description: 'a protocol 0 pickle with INST',
    bytes: () => ascii("(S'true'\nios\nsystem\n."),
    expect: { refused: /asks to load Python code \(opcode INST at byte 9\)/ },
  },
  {
    name: 'protocol1-obj.pickle',
    defectClass: 10,
    description: 'a protocol 1 pickle with OBJ',
    bytes: () => ascii('(cos\nsystem\nX\x04\x00\x00\x00trueo.'),
    expect: { refused: /asks to load Python code \(opcode GLOBAL at byte 1\)/ },
  },
  {
    name: 'protocol0-plain.pickle',
    defectClass: 10,
    description: 'a protocol 0 pickle of plain data',
    bytes: () => ascii('(dp0\nVsegments\np1\n(lp2\ns.'),
    expect: { refused: /a pickle of protocol 0 or 1/ },
  },
  // 11. Opcodes a snapshot never uses.
  {
    name: 'empty-set.pickle',
    defectClass: 11,
    description: 'a protocol 4 pickle holding a set',
    bytes: () => rawPickle(Op.EMPTY_SET, Op.STOP),
    expect: { refused: /pickle opcode EMPTY_SET \(a set\) is not used by memory snapshots/ },
  },
  {
    name: 'frozenset.pickle',
    defectClass: 11,
    description: 'a protocol 4 pickle holding a frozenset',
    bytes: () => rawPickle(Op.MARK, Op.FROZENSET, Op.STOP),
    expect: { refused: /pickle opcode FROZENSET \(a frozenset\) is not used by memory snapshots/ },
  },
  // Round 3 (issue 20), item 3: the JSON form read with the pickle's bounds; item 13: the HTML
  // page's real marker, UTF-16 text.
  {
    name: 'empty-dicts.json',
    defectClass: 303,
    description: 'a 60 MB JSON list of empty dicts ([{},{},…])',
    ...repeated('[', '{},', 20_000_000, '{}]'),
    expect: {
      refused:
        /(?:^|: )\[262143\]: more lists and dicts than a memory snapshot holds \(past the first 262,144, a snapshot takes 8 bytes or more of file for each\) \(at byte 786430\)$/,
    },
  },
  {
    name: 'empty-lists.json',
    defectClass: 303,
    description: 'a 250 MB JSON list of empty lists ([[],[],…])',
    ...repeated('[', '[],', 83_000_000, '[]]'),
    expect: { refused: /(?:^|: )\[262143\]: more lists and dicts than .* \(at byte 786430\)$/ },
  },
  {
    name: 'many-numbers.json',
    defectClass: 303,
    description: 'a 20 MB JSON snapshot whose segments are ten million 1s',
    ...repeated('{"segments": [', '1,', 10_000_000, '1]}'),
    expect: {
      refused:
        /(?:^|: )segments\[262144\]: more items in lists and dicts outside the trace than a memory snapshot holds \(past the first 262,144, a snapshot takes 8 bytes or more of file for each\) \(at byte 524302\)$/,
    },
  },
  {
    name: 'deep-lists.json',
    defectClass: 303,
    description: 'a JSON snapshot whose segments nest a million lists deep',
    ...repeated('{"segments": ', '[', 1_000_000, ''),
    expect: {
      refused:
        /(?:^|: )segments\[0\]\[0\].*: the JSON is nested more than 4,096 levels deep; a memory snapshot is nested a few levels \(at byte 4108\)$/,
    },
  },
  {
    name: 'huge-string.json',
    defectClass: 303,
    description: 'a JSON snapshot whose trace entry holds a 70 MB string',
    bytes: () =>
      concat(
        ascii('{"device_traces": [[{"action": "alloc", "user_metadata": "'),
        new Uint8Array(70 * MiB).fill(0x61),
        ascii('"}]]}'),
      ),
    expect: {
      refused:
        /(?:^|: )device_traces\[0\]\[0\]\.user_metadata: a string of more than 67,108,864 bytes; no field of a memory snapshot is longer than 67,108,864 bytes \(at byte 57\)$/,
    },
  },
  {
    name: 'long-string.json',
    defectClass: 303,
    description: 'a valid JSON snapshot whose user_metadata is a 40 MB string',
    bytes: () =>
      tinyJsonSnapshot((snapshot) => {
        traceOf(snapshot)[1]!.user_metadata = 'x'.repeat(40 * MiB);
      }),
    expect: { opens: 'cleanly' },
  },
  {
    name: 'string-size.json',
    defectClass: 303,
    description: 'a JSON snapshot whose trace entry has a size that is a string',
    bytes: () => tinyJsonSnapshot((snapshot) => void (traceOf(snapshot)[1]!.size = 'x')),
    expect: {
      refused: new RegExp(
        `(?:^|: )not a memory snapshot of a known shape: device_traces\\[0\\]\\[1\\]\\.size: expected a byte count, found a string \\('x'\\) \\(at byte ${byteAfter(
          tinyJsonSnapshot((snapshot) => void (traceOf(snapshot)[1]!.size = 'x')),
          '"size":',
          4,
        )}\\)$`,
      ),
    },
  },
  {
    name: 'negative-block-size.json',
    defectClass: 303,
    description: 'a JSON snapshot with a block of negative size',
    bytes: () => tinyJsonSnapshot((snapshot) => void (blocksOf(snapshot)[1]!.size = -5)),
    expect: {
      refused: new RegExp(
        `(?:^|: )not a memory snapshot of a known shape: segments\\[0\\]\\.blocks\\[1\\]\\.size: -5 is not a byte count \\(at byte ${byteAfter(
          tinyJsonSnapshot((snapshot) => void (blocksOf(snapshot)[1]!.size = -5)),
          '"size":',
          2,
        )}\\)$`,
      ),
    },
  },
  {
    name: 'utf16.json',
    defectClass: 313,
    description: 'a JSON snapshot saved as UTF-16',
    bytes: () =>
      concat(
        Uint8Array.of(0xff, 0xfe),
        new Uint8Array(Buffer.from(new TextDecoder().decode(tinyJsonSnapshot()), 'utf16le')),
      ),
    expect: {
      refused: /(?:^|: )this is text in UTF-16: the JSON form of a snapshot .* must be UTF-8/,
    },
  },
  {
    name: 'base64-in-comment.html',
    defectClass: 313,
    description: 'the HTML page of _memory_viz with "base64" in a comment before the payload',
    bytes: () =>
      htmlPage(
        tinySnapshot(),
        '<!-- the snapshot is embedded below as "base64": see {"base64": 1} -->',
      ),
    expect: { opens: 'cleanly' },
  },
  // Round 3 (issue 20), items 5 and 6: labels of huge frame names, user metadata nested 20,000
  // deep.
  ...LABEL_AND_METADATA_FILES,
  // Round 3 (issue 20), item 7. Text that would drive the terminal the CLI prints it on.
  {
    name: 'terminal-escapes.pickle',
    defectClass: 307,
    description: 'escape sequences in frames, user_metadata, annotations and an action name',
    bytes: terminalEscapesSnapshot,
    expect: { warning: /unknown actions: evil/ },
  },
  // Round 3 (issue 20), item 8. Text a spreadsheet program would run as a formula.
  {
    name: 'csv-formulas.pickle',
    defectClass: 308,
    description: 'frames and user_metadata that read as spreadsheet formulas',
    bytes: csvFormulasSnapshot,
    expect: { opens: 'cleanly' },
  },
  // Round 3 (issue 20), item 4: gzip bombs of valid-looking trace (the took two minutes
  // and 3.6 GB, or ran out of memory), refused once 2 MiB are unpacked.
  {
    name: 'gzip-bomb-3gb.pickle.gz',
    defectClass: 304,
    description: '11 MB of gzip unpacking to 2.8 GiB of trace entries, the trailer telling',
    bytes: () => gzipOfRepeats(repeatedTrace(2000, 17_045, 1)),
    expect: {
      refused:
        /the gzip data unpacks to 2\.8 GiB \(says its trailer\), 258 times its size: decoding it could take 8\.4 GiB of memory, over the limit of 2\.1 GiB for a file of 11\.1 MiB \(snapshots compress up to about 40 times\)/,
    },
  },
  {
    name: 'gzip-bomb-trailer-lies.pickle.gz',
    defectClass: 304,
    description: 'the same 2.8 GiB, its trailer saying 1,000 bytes',
    bytes: () => gzipOfRepeats(repeatedTrace(2000, 17_045, 1), { isize: 1000 }),
    expect: {
      refused:
        /the gzip data would unpack to about 2\.\d GiB, 2\d\d times its size \(judging by the first \d+\.\d MiB\)/,
    },
  },
  // Round 3, item 13: bytes after the gzip member, refused alike (Node read further members and
  // ignored zeros, Chromium refused both, and whether they were reached depended on the chunks).
  {
    name: 'gzip-trailing-zeros.pickle.gz',
    defectClass: 313,
    description: 'a gzip member followed by 512 zero bytes',
    bytes: () => concat(gzipSync(tinySnapshot()), new Uint8Array(512)),
    expect: {
      refused: /bytes follow the end of the gzip data \(padding, garbage or a second gzip member\)/,
    },
  },
  {
    name: 'gzip-trailing-garbage.pickle.gz',
    defectClass: 313,
    description: 'a gzip member followed by text',
    bytes: () => concat(gzipSync(tinySnapshot()), new TextEncoder().encode('garbage\n')),
    expect: { refused: /bytes follow the end of the gzip data/ },
  },
  {
    name: 'gzip-two-members.pickle.gz',
    defectClass: 313,
    description: 'a snapshot cut in two gzip members (gzip -c a b)',
    bytes: () => {
      const pickle = tinySnapshot();
      const half = pickle.length >> 1;
      return concat(gzipSync(pickle.subarray(0, half)), gzipSync(pickle.subarray(half)));
    },
    expect: { refused: /bytes follow the end of the gzip data/ },
  },
  // Round 3 (issue 20), item 1: more items in lists, dicts and tuples, or memo slots, than the
  // bytes justify (a 137 KB gzip made V8 abort with "invalid size" at 1.9 GB).
  {
    name: 'none-list-bomb.pickle.gz',
    defectClass: 301,
    description: 'MARK, 100,000 NONE, APPENDS, 200 times into one list (gzip, 20 KB)',
    bytes: () => gzipSync(noneListBomb(200), { level: 9 }),
    expect: {
      refused:
        /more items in lists, dicts and tuples than a memory snapshot holds \(past the first 1,048,576, a snapshot takes 2 bytes or more of file for each\) \(at byte 1100024\)/,
    },
  },
  {
    name: 'memoize-bomb.pickle.gz',
    defectClass: 301,
    description: 'NONE memoized 20,000,000 times in a row (gzip, 20 KB)',
    bytes: () => {
      const bytes = new Uint8Array(20_000_004).fill(Op.MEMOIZE);
      bytes.set([Op.PROTO, 4, Op.NONE]);
      bytes[bytes.length - 1] = Op.STOP;
      return gzipSync(bytes, { level: 9 });
    },
    expect: {
      refused:
        /the same object is memoized twice in a row; a pickler memoizes each object once \(at byte 4\)/,
    },
  },
  // Round 3, item 2: devices that cannot be. Device indexes were stored in an Int32Array: 2^31
  // showed as cuda:-2147483648, 2^32 - 1 as "host (pinned)", 2^40 as cuda:0; 100,000 devices
  // took 37 s and 3.4 GB.
  ...[2 ** 31, 2 ** 32 - 1, 2 ** 40].map((device): HostileFile => ({
    name: `device-${device}.pickle`,
    defectClass: 302,
    description: `a segment on device ${device.toLocaleString('en-US')}`,
    bytes: () => tinySnapshot((snapshot) => void (segmentsOf(snapshot)[0]!.device = device)),
    expect: {
      refused: new RegExp(
        `segments\\[0\\]\\.device: ${device.toLocaleString('en-US')} is not a device index \\(0 to 511\\)`,
      ),
    },
  })),
  {
    name: 'annotation-device-2-31.pickle',
    defectClass: 302,
    description: 'an external annotation on device 2^31',
    bytes: () =>
      tinySnapshot((snapshot) => {
        snapshot.external_annotations = [
          { stage: 'START', name: 'step', device: 2 ** 31, time_us: 1_000 },
        ];
      }),
    expect: {
      refused:
        /external_annotations\[0\]\.device: 2,147,483,648 is not a device index \(0 to 511\)/,
    },
  },
  {
    name: 'devices-100000-traces.pickle.gz',
    defectClass: 302,
    description: 'device_traces of 100,000 lists of one entry each (gzip)',
    bytes: () =>
      gzipSync(
        tinySnapshot((snapshot) => {
          snapshot.device_traces = Array.from({ length: 100_000 }, () => [{ ...SNAPSHOT_ENTRY }]);
        }),
      ),
    expect: {
      refused:
        /device_traces has 100,000 lists, one per device; 512 is not a device index \(0 to 511\)/,
    },
  },
  {
    name: 'devices-10000-segments.pickle.gz',
    defectClass: 302,
    description: '10,000 segments, each on a device of its own (gzip)',
    bytes: () =>
      gzipSync(
        tinySnapshot((snapshot) => {
          const segment = segmentsOf(snapshot)[0]!;
          snapshot.device_traces = [];
          snapshot.segments = Array.from({ length: 10_000 }, (_, device) => ({
            ...segment,
            device,
            blocks: [{ address: BASE, size: 2 * MiB, requested_size: 0, state: 'inactive' }],
          }));
        }),
      ),
    expect: { refused: /segments\[512\]\.device: 512 is not a device index \(0 to 511\)/ },
  },
  {
    name: 'devices-512.pickle',
    defectClass: 302,
    description: 'the most devices a process has (512), one trace entry each',
    bytes: () =>
      tinySnapshot((snapshot) => {
        snapshot.segments = [];
        snapshot.device_traces = Array.from({ length: 512 }, () => [{ ...SNAPSHOT_ENTRY }]);
      }),
    expect: { opens: 'cleanly' },
  },
  // Found by round 3's own campaign (seed 20261137, case 76408; class 314): each size is at most
  // 1 PiB, but a curve sums them, and past 2^53 bytes its figures are no longer exact (the
  // summary's schema refused them). No device holds 8 PiB: refused.
  {
    name: 'frees-past-2-53.pickle',
    defectClass: 314,
    description: 'ten frees of 1 PiB with no alloc before them (the active curve at 10 PiB)',
    bytes: () =>
      tinySnapshot((snapshot) => {
        traceOf(snapshot).unshift(
          ...Array.from({ length: 10 }, (_, i) => ({
            action: 'free_completed',
            addr: BASE + 2 ** 32 * (i + 1),
            size: 2 ** 50,
            stream: 0,
            time_us: 900 + i,
          })),
        );
      }),
    expect: {
      refused:
        /cuda:0: the trace puts the active curve at 10\.0 PiB before its first entry, past 2\^53 bytes \(8 PiB\), more than any device holds/,
    },
  },
  {
    name: 'segments-past-2-53.pickle',
    defectClass: 314,
    description: 'nine segments of 1 PiB mapped one after another (the reserved curve at 9 PiB)',
    bytes: () =>
      tinySnapshot((snapshot) => {
        traceOf(snapshot).push(
          ...Array.from({ length: 9 }, (_, i) => ({
            action: 'segment_alloc',
            addr: BASE + 2 ** 32 * (i + 1),
            size: 2 ** 50,
            stream: 0,
            time_us: 2_000 + i,
          })),
        );
      }),
    expect: { refused: /the trace puts the reserved curve at 9\.0 PiB, past 2\^53 bytes/ },
  },
];

/**
 * `prefix`, then `count` times `item`, then `suffix`: the file whole, and in pieces of about a
 * MiB (the same piece again and again), for a file of hundreds of MB.
 */
export function repeated(
  prefix: string,
  item: string,
  count: number,
  suffix: string,
): Pick<HostileFile, 'bytes' | 'chunks'> {
  const chunks = (): Iterable<Uint8Array> => repeatedChunks(prefix, item, count, suffix);
  return { bytes: () => concat(...chunks()), chunks };
}

function* repeatedChunks(
  prefix: string,
  item: string,
  count: number,
  suffix: string,
): Generator<Uint8Array> {
  yield ascii(prefix);
  const unit = ascii(item);
  const perPiece = Math.max(1, Math.floor(MiB / unit.length));
  const piece = new Uint8Array(unit.length * Math.min(perPiece, count));
  for (let at = 0; at < piece.length; at += unit.length) piece.set(unit, at);
  for (let left = count; left > 0; left -= perPiece) {
    yield left >= perPiece ? piece : piece.subarray(0, left * unit.length);
  }
  yield ascii(suffix);
}

/** Writes the file at `path` (piece by piece when it has pieces). */
export function writeHostileFile(path: string, file: Pick<HostileFile, 'bytes' | 'chunks'>): void {
  if (file.chunks === undefined) {
    writeFileSync(path, file.bytes());
    return;
  }
  const fd = openSync(path, 'w');
  try {
    for (const chunk of file.chunks()) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

/** The byte right after the `nth` (1-based) `marker` in `bytes`: where a value starts. */
function byteAfter(bytes: Uint8Array, marker: string, nth: number): number {
  const text = new TextDecoder().decode(bytes);
  let at = -1;
  for (let i = 0; i < nth; i++) at = text.indexOf(marker, at + 1);
  return at + marker.length;
}

/**
 * Terminal escape sequences a file's text could carry to a terminal: clear the screen, retitle
 * the window (OSC 0), write the clipboard (OSC 52), colour text through the one-byte C1 CSI
 * (U+009B), ring the bell, overwrite the line (CR), DEL, flip the text's direction (U+202E) and
 * a line break inside one name.
 */
export const TERMINAL_ESCAPES = {
  clear: '\x1b[2J\x1b[H',
  title: '\x1b]0;pwned\x07',
  clipboard: '\x1b]52;c;cm0gLXJmIH4K\x07',
  c1: '\u009b31mRED\u009b0m',
  bell: '\x07',
  del: '\x7f',
  cr: 'ok\rfake',
  bidi: '\u202egnp.exe\u202c',
  newline: 'one\ntwo',
} as const;

const ESCAPES = Object.values(TERMINAL_ESCAPES).join('');

/**
 * Escape sequences in every kind of text of a snapshot the CLI prints: frame file names and
 * function names, user_metadata, annotation names (the steps), an unknown action's name, an
 * allocator setting.
 */
export function terminalEscapesSnapshot(): Uint8Array {
  return tinySnapshot((snapshot) => {
    const stack = [
      {
        filename: `model${TERMINAL_ESCAPES.c1}${TERMINAL_ESCAPES.newline}.py`,
        line: 7,
        name: ESCAPES,
      },
      { filename: `train${TERMINAL_ESCAPES.clear}.py`, line: 62, name: `step${ESCAPES}` },
    ];
    blocksOf(snapshot)[0]!.frames = stack;
    const trace = traceOf(snapshot);
    for (const entry of trace) entry.frames = stack;
    trace[1]!.user_metadata = `meta${ESCAPES}`;
    trace.push({ action: `evil${ESCAPES}`, addr: 0, size: 0, stream: 0, time_us: 1_005 });
    snapshot.external_annotations = [
      { stage: 'START', name: `${ESCAPES} step 1`, device: 0, time_us: 1_000 },
      { stage: 'END', name: `${ESCAPES} step 1`, device: 0, time_us: 1_002 },
      { stage: 'START', name: `${ESCAPES} step 2`, device: 0, time_us: 1_002 },
      { stage: 'END', name: `${ESCAPES} step 2`, device: 0, time_us: 1_004 },
    ];
    snapshot.allocator_settings = { PYTORCH_CUDA_ALLOC_CONF: `x${ESCAPES}`, max_split_size: -1 };
  });
}

/** Cell texts a spreadsheet program would run as formulas (OWASP's CSV injection). */
export const CSV_FORMULAS = [
  '=HYPERLINK("http://x","y")',
  "=cmd|' /C calc'!A0",
  '+1',
  '-cmd',
  '@SUM(1)',
  '\t=1+1',
  '\r=1+1',
] as const;

/**
 * One allocation per formula (made and freed after the others), its stack's only frame the
 * formula (a file name ending .py, so that it is the user's frame the CSV names), with the
 * formula as its user_metadata.
 */
export function csvFormulasSnapshot(): Uint8Array {
  return tinySnapshot((snapshot) => {
    const trace = traceOf(snapshot);
    CSV_FORMULAS.forEach((formula, i) => {
      const frames = [{ filename: `${formula}.py`, line: i + 1, name: formula }];
      const entry = { addr: BASE + MiB + 4096 * i, size: 512, stream: 0, frames };
      trace.push(
        { action: 'alloc', ...entry, time_us: 1_010 + 3 * i, user_metadata: formula },
        { action: 'free_requested', ...entry, time_us: 1_011 + 3 * i },
        { action: 'free_completed', ...entry, time_us: 1_012 + 3 * i },
      );
    });
  });
}

/** The hostile files a class stands for (tests name them by class). */
export function hostileFilesOfClass(defectClass: number): HostileFile[] {
  return HOSTILE_FILES.filter((file) => file.defectClass === defectClass);
}

export type { PickleDict };
