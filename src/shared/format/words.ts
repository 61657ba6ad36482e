// The words for what a snapshot names: pools, streams, segment types, groups of segments and
// stack frames. One wording each, used by the app, the SVG/PNG exports, the JSON documents'
// verdicts and the CLI, so a picture, a screen and a terminal say the same thing. This layer
// imports nothing else from src/shared: callers pass plain values (a pool id as written, a raw
// cudaStream_t, a segment type code or name, a frame's fields).
//
// The words follow PyTorch's own where it has them: the snapshot's `segment_type` values
// ('large', 'small'), `is_expandable`, "default stream" for the null stream, "private pool" for
// the pools CUDA graphs and torch.cuda.MemPool use (`segment_pool_id`).

// ---------------------------------------------------------------------------------------------
// Pools

/** The default pool's id as the snapshot model writes it; always pool index 0. */
export const DEFAULT_POOL_ID = '0,0';

/**
 * "default pool", or "private pool (1,3)" with the id as the snapshot writes it.
 *
 * In parentheses because the id is the tuple PyTorch records (`segment_pool_id`, a
 * (capture id, pool id) pair, printed by Python as a tuple), and because the comma inside it
 * must not read as a list separator in a sentence ("private pool (1,3), stream 0x5a") or in a
 * table cell. ("private pool 1,3" was the app's, "pool (1,3)" the OOM verdict's.)
 */
export function poolName(poolId: string): string {
  return poolId === DEFAULT_POOL_ID ? 'default pool' : `private pool (${poolId})`;
}

/** The id of pool `poolIndex` of a snapshot's pool ids (index 0 is the default pool). */
export function poolIdAt(poolIds: readonly string[], poolIndex: number): string {
  return poolIds[poolIndex] ?? (poolIndex === 0 ? DEFAULT_POOL_ID : String(poolIndex));
}

/** poolName of pool `poolIndex` of a snapshot's pool ids. */
export function poolNameAt(poolIds: readonly string[], poolIndex: number): string {
  return poolName(poolIdAt(poolIds, poolIndex));
}

// ---------------------------------------------------------------------------------------------
// Streams

/**
 * A raw cudaStream_t: 0 is the default (null) stream, "default stream"; any other value is a
 * pointer, "stream 0x7f3c…" in hex as CUDA tools print pointers. ("stream 0 (default)" was the
 * app's, "stream 0" the OOM verdict's, bare "0" the report text's.)
 */
export function streamName(stream: number | undefined): string {
  if (stream === undefined || !Number.isFinite(stream)) return 'unknown stream';
  return stream === 0 ? 'default stream' : `stream 0x${Math.trunc(stream).toString(16)}`;
}

/** streamName of stream `streamId` of a snapshot's raw stream values. */
export function streamNameAt(streams: readonly number[], streamId: number): string {
  return streamName(streams[streamId]);
}

// ---------------------------------------------------------------------------------------------
// Segment types

/**
 * The snapshot's `segment_type` values by the model's segment type code (SnapshotModel's
 * segments.segmentType and analysis' SegmentTypeCode: 0 large, 1 small, 2 anything else).
 */
export const SEGMENT_TYPE_NAMES = ['large', 'small', 'unknown'] as const;

export type SegmentTypeName = (typeof SEGMENT_TYPE_NAMES)[number];

/** 'large', 'small' or 'unknown' for a segment type code. */
export function segmentTypeName(segmentType: number): SegmentTypeName {
  return SEGMENT_TYPE_NAMES[segmentType] ?? 'unknown';
}

/** "large segments", "small segments", "segments of unknown type". */
export function segmentsOfType(segmentType: number | SegmentTypeName): string {
  const name = typeof segmentType === 'number' ? segmentTypeName(segmentType) : segmentType;
  return name === 'unknown' ? 'segments of unknown type' : `${name} segments`;
}

/** PyTorch's word for a segment made with expandable_segments:True (`is_expandable`). */
export const EXPANDABLE = 'expandable';

// ---------------------------------------------------------------------------------------------
// Groups of segments: a pool, a stream and a segment type (where a request is served from)

/** "default pool · default stream · large segments": a group's title in the app and the SVG. */
export function segmentGroupName(
  poolId: string,
  stream: number | undefined,
  segmentType: number | SegmentTypeName,
): string {
  return `${poolName(poolId)} · ${streamName(stream)} · ${segmentsOfType(segmentType)}`;
}

/**
 * The same group in a sentence: "the default pool on the default stream (large segments)",
 * "the private pool (0,2) on stream 0x5a (small segments)".
 */
export function segmentGroupPhrase(
  poolId: string,
  stream: number | undefined,
  segmentType: number | SegmentTypeName,
): string {
  const streamWords = streamName(stream);
  const onStream = stream === 0 ? `the ${streamWords}` : streamWords;
  return `the ${poolName(poolId)} on ${onStream} (${segmentsOfType(segmentType)})`;
}

// ---------------------------------------------------------------------------------------------
// Stack frames

export interface FrameFields {
  filename: string;
  line: number;
  name: string;
}

/** A frame without a source file: C++ frames symbolised without debug info, or none at all. */
function hasNoFile(frame: FrameFields): boolean {
  return frame.filename === '' || frame.filename === '??';
}

/** 'full': the path as recorded; 'short': its last two parts ("nn/linear.py"), for narrow places. */
export type FramePath = 'full' | 'short';

/** "path/to/file.py:12", '?' for an unknown line. */
export function frameLocation(frame: FrameFields, path: FramePath = 'full'): string {
  const file = path === 'short' ? shortFilePath(frame.filename) : frame.filename;
  return `${file}:${frame.line < 0 ? '?' : frame.line}`;
}

/** The last two parts of a path, "nn/linear.py" (FramePath 'short'). */
export function shortFilePath(filename: string): string {
  return filename.split(/[\\/]/).slice(-2).join('/');
}

/**
 * A frame in one line, "file.py:12 name" (location first, as compilers and linters print it, so
 * editors and terminals can open it); just "name" for a frame without a file.
 */
export function frameText(frame: FrameFields, path: FramePath = 'short'): string {
  return hasNoFile(frame) ? frame.name : `${frameLocation(frame, path)} ${frame.name}`;
}

/** What a holder or a table lists in place of a frame when the allocation recorded no stack. */
export const NO_STACK_TEXT = '(no stack recorded)';

/**
 * A C++ symbol as people say it: `at::detail::empty_strided_generic(c10::ArrayRef<long>, …)` is
 * "empty_strided_generic", `c10::StorageImpl::StorageImpl(…)` "StorageImpl",
 * `torch::autograd::generated::MulBackward0::apply(…)` "MulBackward0::apply". Template arguments,
 * parameter lists, return types, linker suffixes (`[clone .isra.0]`, `.localalias`) and
 * namespaces go; a method keeps its class. Names that are not C++ (Python functions,
 * `_PyEval_EvalFrameDefault`) come back unchanged. The full symbol stays in the stack panel.
 */
export function shortNativeName(symbol: string): string {
  const qualified = qualifiedNativeName(symbol);
  const parts = qualified.split('::').filter((part) => part !== '' && !isAnonymousPart(part));
  const last = parts.at(-1) ?? qualified;
  const owner = parts.at(-2);
  if (owner === undefined || NAMESPACE_PARTS.has(owner)) return last;
  // A constructor or destructor says its class once: "StorageImpl", "~StorageImpl".
  if (last === owner || last === `~${owner}`) return last;
  return `${owner}::${last}`;
}

/**
 * `ns::Class::method` of a C++ symbol: without template arguments, the parameter list, the
 * return type and linker suffixes. Exported for rules that match on namespaces
 * (analysis/user-frame.ts).
 */
export function qualifiedNativeName(symbol: string): string {
  // Every step is one left-to-right or right-to-left scan: a symbol is file data, and one of a
  // megabyte must cost a megabyte's work, not a megabyte squared (docs/bad-input.md).
  // Python's own names (`<module>`, `<listcomp>`) hold brackets too, but no scope or parameters.
  if (!symbol.includes('::') && !symbol.includes('(')) return symbol.replace(LINKER_SUFFIX, '');
  let text = withoutCloneSuffixes(symbol)
    .replace(LINKER_SUFFIX, '')
    .replaceAll('(anonymous namespace)', ANONYMOUS)
    .trim();
  // Operators whose names hold brackets or parentheses, kept whole while the rest is elided (a
  // fixed word and a few characters: linear).
  const operators: string[] = [];
  text = text.replace(/operator(<<=|>>=|<=>|<<|>>|->\*|->|<=|>=|<|>|\(\)|\[\])/g, (match) => {
    operators.push(match);
    return `operator\uE000${operators.length - 1}\uE000`;
  });
  // Template arguments (they may hold parentheses: std::function<void (int)>).
  text = withoutTemplateArguments(text);
  text = withoutTrailingQualifiers(text);
  // The parameter list: the balanced group that ends the symbol.
  if (text.endsWith(')')) {
    let depth = 0;
    for (let i = text.length - 1; i >= 0; i--) {
      if (text[i] === ')') depth++;
      else if (text[i] === '(' && --depth === 0) {
        text = text.slice(0, i);
        break;
      }
    }
  }
  // The return type: whatever stands before the name, separated by a space at bracket depth 0.
  const space = lastTopLevelSpace(text);
  if (space >= 0) text = text.slice(space + 1);
  return text
    .replace(/operator\uE000(\d+)\uE000/g, (_match, index: string) => operators[Number(index)]!)
    .trim();
}

/**
 * Without GCC's ` [clone .isra.0]` suffixes: each ` [clone ` up to the next `]` (none when no `]`
 * follows). A scan, where ` \[clone [^\]]*\]` would look for the `]` again from every ` [clone `.
 */
function withoutCloneSuffixes(text: string): string {
  const OPEN = ' [clone ';
  let kept = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf(OPEN, from);
    if (open < 0) break;
    const close = text.indexOf(']', open + OPEN.length);
    if (close < 0) break;
    kept += text.slice(from, open);
    from = close + 1;
  }
  return from === 0 ? text : kept + text.slice(from);
}

/**
 * Without template arguments: every `<` and the matching `>` go with what is between them; a `<`
 * or `>` without its match stays. What removing the innermost `<…>` until none is left gives, in
 * one pass (that removal took one pass per level of nesting).
 */
function withoutTemplateArguments(text: string): string {
  if (!text.includes('<')) return text;
  const opens: number[] = [];
  // The outermost matched pairs so far, as [start, end) ranges in order: a pair matched later
  // that starts before them holds them.
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LESS) opens.push(i);
    else if (c === GREATER && opens.length > 0) {
      const start = opens.pop()!;
      while (starts.length > 0 && starts[starts.length - 1]! > start) {
        starts.pop();
        ends.pop();
      }
      starts.push(start);
      ends.push(i + 1);
    }
  }
  if (starts.length === 0) return text;
  let kept = text.slice(0, starts[0]);
  for (let r = 0; r < starts.length; r++) kept += text.slice(ends[r], starts[r + 1] ?? text.length);
  return kept;
}

const LESS = 0x3c;
const GREATER = 0x3e;

/**
 * Without a trailing ` const` and then a trailing `&` or `&&` (and the whitespace before them), as
 * `/\s+const$/` and `/\s*&{1,2}$/` would, without their search from every whitespace character.
 * (`\s` and trimEnd() name the same whitespace.)
 */
function withoutTrailingQualifiers(text: string): string {
  if (text.endsWith('const') && text.length > 5 && /\s/.test(text[text.length - 6]!))
    text = text.slice(0, -5).trimEnd();
  let ampersands = 0;
  while (ampersands < text.length && text[text.length - 1 - ampersands] === '&') ampersands++;
  if (ampersands === 0) return text;
  // A third `&` is not part of the match: it stays, and so does the space before it.
  if (ampersands > 2) return text.slice(0, -2);
  return text.slice(0, -ampersands).trimEnd();
}

const ANONYMOUS = '{anonymous}';

/**
 * What compilers and linkers append to a symbol: `.localalias`, `.isra.0`, `.lto_priv.4`. Linear:
 * tried at each dot, it reads at most a word and one run of digits, which no other dot shares.
 */
const LINKER_SUFFIX =
  /\.(localalias|constprop\.\d+|isra\.\d+|part\.\d+|cold|lto_priv\.\d+|llvm\.\d+)\b/g;

function isAnonymousPart(part: string): boolean {
  return part === ANONYMOUS || part.startsWith('{lambda') || part.startsWith('{unnamed');
}

/** Namespaces that say nothing about what the code does, dropped before a function's name. */
const NAMESPACE_PARTS = new Set([
  'at',
  'c10',
  'std',
  'torch',
  'detail',
  'details',
  'native',
  'impl',
  'generated',
  'autograd',
  'cuda',
  'meta',
  'cub',
  'jit',
  'dynamo',
  'python',
  'utils',
  'functorch',
  'inductor',
  '_ops',
  '__cxx11',
  '__gnu_cxx',
]);

function lastTopLevelSpace(text: string): number {
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ')' || c === ']' || c === '}') depth++;
    else if (c === '(' || c === '[' || c === '{') depth--;
    else if (c === ' ' && depth === 0 && !text.endsWith('operator', i)) return i;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// Devices

/**
 * "cuda:0", "host (pinned)" for the pseudo-device of pinned host memory (-1: HOST_DEVICE of
 * snapshot/model.ts), or "cpu" for a profiler trace's CPU memory (-2: CPU_DEVICE); repeated here
 * because this layer imports nothing.
 */
export function deviceLabel(device: number): string {
  if (device === -1) return 'host (pinned)';
  if (device === -2) return 'cpu';
  return `cuda:${device}`;
}

// ---------------------------------------------------------------------------------------------
// The file's form

/** Said wherever a view or command needs the allocator's segments and the file is a profiler trace. */
export const NO_SEGMENTS_IN_TRACE =
  'a PyTorch profiler trace does not record segments (the allocator state, fragmentation and OOM explanations need a memory snapshot: torch.cuda.memory._dump_snapshot)';

/** The same, of a memory timeline (export_memory_timeline): it records categories' bytes only. */
export const NO_SEGMENTS_IN_TIMELINE =
  'a PyTorch memory timeline does not record segments (the allocator state, fragmentation and OOM explanations need a memory snapshot: torch.cuda.memory._dump_snapshot)';

/**
 * "pickle protocol 4", "JSON form" for a snapshot read from JSON (no pickle protocol: null), or
 * "PyTorch profiler trace" (SnapshotModel.source, repeated here because this layer imports
 * nothing).
 */
export function snapshotFormName(
  pickleProtocol: number | null,
  source?: 'memory-snapshot' | 'profiler-trace' | 'memory-timeline',
): string {
  if (source === 'profiler-trace') return 'PyTorch profiler trace';
  if (source === 'memory-timeline') return 'PyTorch memory timeline';
  return pickleProtocol === null ? 'JSON form' : `pickle protocol ${pickleProtocol}`;
}

/** The text with its first letter capitalised, to start a line or a sentence with it. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
