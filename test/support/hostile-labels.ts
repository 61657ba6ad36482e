// Hand-made files of issue 20 whose data is valid but costly to show: frame names that made the
// label code quadratic (deep C++ templates, long `…Backward…` words, runs a backtracking regex
// walks again from every position) and user metadata nested far deeper than any recursive
// formatter survives. Each opens cleanly; what matters is that labelling and showing them takes
// time and memory in proportion to the file, and that nothing throws.

import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import { tuple, type PickleValue } from '../../generators/pickle/pickle-values';
import type { HostileFile } from './hostile-files';

const MiB = 1 << 20;
const BASE = 0x7f0000000000;

export interface BombFrame {
  filename: string;
  line: number;
  name: string;
}

/**
 * Frame names (and other texts) that cost the old label code O(n²), each about `length`
 * characters: what a C++ symbol with deeply nested templates, or a hostile file, holds.
 */
export function labelBombNames(length: number): {
  /** `at::native::bomb<T<T<…int…>>>(int)`: one innermost pair removed per pass before. */
  deepTemplate: string;
  /** `torch::autograd::generated::BackwardBackward…` with no `::apply`: `\w*Backward\w*` retried from every Backward. */
  backwardWord: string;
  /** `f(int) [clone .a [clone .a …` never closed: ` \[clone [^\]]*\]` scanned to the end from each. */
  unclosedClone: string;
  /** `at::f(int)` then a run of spaces then `x`: `\s+const$` retried from every space. */
  spaceRun: string;
  /** `File "File "File "…`: the forward_frames' `File "([^"]+)"` scanned to the end from each. */
  unclosedFileQuote: string;
  /** A word without `.py:` of `length` letters: `(\S+\.py):\d+` retried from every letter. */
  longWord: string;
  /** `step 111…1x`: a step family's `[#_\s-]*\d+$` retried from every digit. */
  stepDigits: string;
} {
  const depth = Math.max(1, Math.floor((length - 30) / 3));
  return {
    deepTemplate: `at::native::bomb<${'T<'.repeat(depth)}int${'>'.repeat(depth)}>(int)`,
    backwardWord: `torch::autograd::generated::${'Backward'.repeat(Math.ceil(length / 8))}`,
    unclosedClone: `at::f(int)${' [clone .a'.repeat(Math.ceil(length / 10))}`,
    spaceRun: `at::f(int)${' '.repeat(length)}x`,
    unclosedFileQuote: 'File "'.repeat(Math.ceil(length / 6)),
    longWord: 'a'.repeat(length),
    stepDigits: `step ${'1'.repeat(length)}x`,
  };
}

/**
 * A consistent snapshot of one device whose live allocations have the given stacks (one 1 MiB
 * block each, in one segment), with the given extra fields on each allocation's trace entry.
 */
export function snapshotWithStacks(
  stacks: readonly (readonly BombFrame[])[],
  options: {
    entryFields?: (index: number) => Record<string, PickleValue>;
    extra?: Record<string, PickleValue>;
    traceExtra?: Record<string, PickleValue>[];
  } = {},
): Uint8Array {
  const count = stacks.length;
  const total = (count + 1) * MiB;
  const blocks: Record<string, PickleValue>[] = stacks.map((frames, i) => ({
    address: BASE + i * MiB,
    size: MiB,
    requested_size: MiB,
    state: 'active_allocated',
    frames: frames as unknown as PickleValue,
  }));
  blocks.push({
    address: BASE + count * MiB,
    size: MiB,
    requested_size: 0,
    state: 'inactive',
    frames: [],
  });
  const trace: Record<string, PickleValue>[] = [
    { action: 'segment_alloc', addr: BASE, size: total, stream: 0, time_us: 1_000, frames: [] },
    ...stacks.map((frames, i) => ({
      action: 'alloc',
      addr: BASE + i * MiB,
      size: MiB,
      stream: 0,
      time_us: 1_001 + i,
      frames: frames as unknown as PickleValue,
      ...(options.entryFields?.(i) ?? {}),
    })),
    ...(options.traceExtra ?? []),
  ];
  const snapshot: Record<string, PickleValue> = {
    segments: [
      {
        device: 0,
        address: BASE,
        total_size: total,
        allocated_size: count * MiB,
        active_size: count * MiB,
        requested_size: count * MiB,
        stream: 0,
        segment_type: 'large',
        segment_pool_id: tuple(0, 0),
        is_expandable: false,
        frames: [],
        blocks,
      },
    ],
    device_traces: [trace],
    ...(options.extra ?? {}),
  };
  return dumpToBytes(snapshot as unknown as PickleValue);
}

/**
 * A label bomb of about `bytes` bytes: every costly name above as a C++ frame (no Python frame,
 * so the label falls through every rule), one allocation per name and one with all of them,
 * the forward_frames and step annotations of the same kind.
 */
export function labelBombSnapshot(bytes: number): Uint8Array {
  const names = labelBombNames(Math.floor(bytes / 7));
  const cpp = (name: string): BombFrame => ({ filename: '??', line: 0, name });
  const frames = [names.deepTemplate, names.backwardWord, names.unclosedClone, names.spaceRun].map(
    cpp,
  );
  const stacks = [...frames.map((frame) => [frame]), frames];
  return snapshotWithStacks(stacks, {
    entryFields: (i): Record<string, PickleValue> =>
      i === 0 ? { forward_frames: [names.unclosedFileQuote, names.longWord] } : {},
    extra: {
      external_annotations: [0, 1].flatMap((i) => [
        { stage: 'START', name: names.stepDigits, device: 0, time_us: 1_000 + 2 * i },
        { stage: 'END', name: names.stepDigits, device: 0, time_us: 1_001 + 2 * i },
      ]),
    },
  });
}

/** JSON text of a list nested `depth` deep: `[[[…]]]`. */
export function deepJsonText(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** JSON text of an object nested `depth` deep: `{"a":{"a":…{}}}`. */
export function deepObjectJsonText(depth: number): string {
  return `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`;
}

/**
 * One allocation whose user_metadata is JSON nested `depth` deep, annotated with another such
 * value, with a long compile context; a second, plain allocation beside it.
 */
export function deepMetadataSnapshot(depth: number): Uint8Array {
  const frame = { filename: 'train.py', line: 62, name: 'forward' };
  return snapshotWithStacks([[frame], [{ ...frame, line: 63 }]], {
    entryFields: (i): Record<string, PickleValue> =>
      i === 0
        ? {
            user_metadata: deepJsonText(depth),
            compile_context: `Torch-Compiled Region: ${'0/'.repeat(50_000)}`,
          }
        : { user_metadata: '{"step": 3}' },
    traceExtra: [
      {
        action: 'annotate',
        addr: BASE,
        size: 0,
        stream: 0,
        time_us: 1_100,
        user_metadata: deepObjectJsonText(depth),
        frames: [frame],
      },
    ],
  });
}

/**
 * One frame with a name of `nameLength` characters in each of `stacks` stacks (each with a frame
 * of its own beside it): a few bytes of file per stack, and before, one pass over the whole name
 * per stack (and per frame rule) to label and classify it.
 */
export function sharedBombFrameSnapshot(nameLength: number, stacks: number): Uint8Array {
  const names = labelBombNames(nameLength);
  const shared: BombFrame = { filename: '??', line: 0, name: names.deepTemplate };
  const own = (i: number): BombFrame => ({ filename: '??', line: i, name: 'at::f(int)' });
  return snapshotWithStacks(Array.from({ length: stacks }, (_, i) => [own(i), shared]));
}

/** A file whose allocation's user_metadata names the key test/e2e/view-bug-seam.ts breaks on. */
export function viewBugSeamSnapshot(key: string): Uint8Array {
  const frame = { filename: 'train.py', line: 62, name: 'forward' };
  return snapshotWithStacks([[frame], [{ ...frame, line: 63 }]], {
    entryFields: (i): Record<string, PickleValue> => ({
      user_metadata: i === 0 ? JSON.stringify({ [key]: 1 }) : '{"step": 3}',
    }),
  });
}

/**
 * `allocations` allocations whose entries all name one category of `length` characters (`" <"`
 * repeated, none of PyTorch's): the text was lower-cased and matched once per allocation, not
 * once per distinct text (the fuzz campaign of seed 20261134, case 32477: 3.4 s of CPU for 1 MB).
 */
export function longCategorySnapshot(length: number, allocations: number): Uint8Array {
  const category = ' <'.repeat(Math.ceil(length / 2));
  const frame: BombFrame = { filename: 'train.py', line: 7, name: 'forward' };
  return snapshotWithStacks(
    Array.from({ length: allocations }, () => [frame]),
    { entryFields: () => ({ category }) },
  );
}

/** Issue 20's files of this kind, opened with the others (hostile-files.ts HOSTILE_FILES). */
export const LABEL_AND_METADATA_FILES: readonly HostileFile[] = [
  {
    name: 'label-bomb.pickle',
    defectClass: 305,
    description:
      'C++ frame names of 150 KB each (deep templates, a long Backward word, unclosed [clone, a run of spaces), 1 MB in all',
    bytes: () => labelBombSnapshot(MiB),
    expect: { opens: 'cleanly' },
  },
  {
    name: 'shared-bomb-frame.pickle',
    defectClass: 305,
    description: 'one frame with a 256 KB name in each of 1,000 stacks',
    bytes: () => sharedBombFrameSnapshot(256 * 1024, 1000),
    expect: { opens: 'cleanly' },
  },
  {
    name: 'long-category.pickle',
    defectClass: 305,
    description: "2,000 allocations naming one category of 900 KB (' <' repeated)",
    bytes: () => longCategorySnapshot(900_000, 2_000),
    expect: { opens: 'cleanly' },
  },
  {
    name: 'deep-metadata.pickle',
    defectClass: 306,
    description: 'user_metadata and an annotation nested 20,000 deep, a 100 KB compile context',
    bytes: () => deepMetadataSnapshot(20_000),
    expect: { opens: 'cleanly' },
  },
];
