// Hand-made hostile and broken files, one or more for each class of defect the fuzz campaign of
// issue 8 found. The CLI tests and the web end-to-end tests open every one of them and expect
// either a clean refusal (one line naming what is wrong) or the snapshot opened with a warning,
// in bounded time and memory. Files are built here, never committed: some are tens of MB.

import { gzipSync } from 'node:zlib';
import { Op } from '../../src/shared/pickle/opcodes';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import {
  pyFloat,
  tuple,
  type PickleDict,
  type PickleValue,
} from '../../generators/pickle/pickle-values';
import { LABEL_AND_METADATA_FILES } from './hostile-labels';

export interface HostileFile {
  /** File name (its extension matters to nobody: the decoder sniffs the bytes). */
  name: string;
  /** Which class of issue 8 it stands for (1-12). */
  defectClass: number;
  /** What it is, for test names. */
  description: string;
  bytes: () => Uint8Array;
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
  return dumpToBytes(snapshot as unknown as PickleValue);
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

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
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

function htmlPage(pickle: Uint8Array): Uint8Array {
  const head = new TextEncoder().encode(
    '<!DOCTYPE html>\n<html><head></head><body><script type="module">\nconst local_files = [{"name": "snapshot.pickle", "base64": "',
  );
  const tail = new TextEncoder().encode('"}];\n</script></body></html>\n');
  return concat(head, new TextEncoder().encode(Buffer.from(pickle).toString('base64')), tail);
}

function ascii(text: string): Uint8Array {
  return new TextEncoder().encode(text);
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
    expect: { refused: /segments\[0\]\.device: expected an integer, found nothing/ },
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
  // 13, 14 (issue 20). Labels of huge frame names, user metadata nested 20,000 deep.
  ...LABEL_AND_METADATA_FILES,
];

/** The hostile files a class stands for (tests name them by class). */
export function hostileFilesOfClass(defectClass: number): HostileFile[] {
  return HOSTILE_FILES.filter((file) => file.defectClass === defectClass);
}

export type { PickleDict };
