// "Which line of MY code did this?" PyTorch stacks start deep inside the framework (the stack
// capture, the caching allocator, C++ kernels, torch/nn/modules/...); the innermost frame of the
// user's own Python code is what users recognise. When a stack has none (the autograd engine's
// threads, C++-only stacks), a short name for what PyTorch was doing: "autograd: AddmmBackward0",
// "empty_strided (C++)". The one rule for every label of a stack: the app (tooltips, legend,
// tables, CSV), the OOM explainer (verdicts, holders), the JSON documents and the CLI texts.

import {
  frameText,
  NO_STACK_TEXT,
  qualifiedNativeName,
  shortFilePath,
  shortNativeName,
} from '../format/words';
import { isDigitCode, wordEnd } from '../format/word-chars';
import type { FrameTable } from '../snapshot/model';
import { stackFrameIds, type SourceFrame, type StackSource } from '../snapshot/stack-source';

/** The longest label; longer ones are cut with "…" (the full frame is in the stack panel). */
export const MAX_LABEL_LENGTH = 100;
/**
 * The longest frame in a list of frames (FrameFacts.shortLabel: the flame graph, an OOM holder's
 * callers); real ones are a few hundred characters, a file's may be megabytes.
 */
export const SHORT_LABEL_CHARS = 1_000;

// ---------------------------------------------------------------------------------------------
// Kinds of frames

/** Python source files: what user code is written in (Jupyter cells are files too). */
const PYTHON_EXTENSIONS = ['.py', '.pyw', '.pyx'];
const INTERACTIVE_SOURCES = ['<ipython-input-', '<stdin>'];

/** Paths of code that is not the user's: PyTorch, installed packages, the standard library. */
const FRAMEWORK_PATH_PARTS = [
  '/torch/',
  '\\torch\\',
  '/site-packages/',
  '\\site-packages\\',
  '/dist-packages/',
  '/lib/python3',
  '\\Lib\\',
  '<frozen ',
  // Code torch.compile generated (Inductor's output in /tmp/torchinductor_<user>/).
  '/torchinductor_',
];

/** A frame of Python source code, the user's or a library's (C++ and interpreter frames are not). */
export function isPythonFrame(filename: string): boolean {
  return (
    PYTHON_EXTENSIONS.some((extension) => filename.endsWith(extension)) ||
    INTERACTIVE_SOURCES.some((part) => filename.startsWith(part))
  );
}

/**
 * A frame of the user's own code: Python source outside PyTorch, installed packages and the
 * standard library. Never a native frame (`??`, `.cpp`, `thread48.o`, `libtorch.so`).
 */
export function isUserFrame(filename: string, _name?: string): boolean {
  const path = rootedTorchPath(filename);
  return isPythonFrame(path) && !FRAMEWORK_PATH_PARTS.some((part) => path.includes(part));
}

/**
 * A profiler trace names files relative to the sys.path entry they were found on: PyTorch's are
 * `torch/nn/modules/linear.py` (its site-packages cut off). Such a path is read as
 * `/torch/nn/modules/linear.py`, so that the rules for PyTorch's own files hold for it too.
 */
function rootedTorchPath(filename: string): string {
  return filename.startsWith('torch/') || filename.startsWith('torch\\')
    ? `/${filename}`
    : filename;
}

/** Every frame that is not the user's own code (isUserFrame), shown dimmed or folded. */
export function isFrameworkFrame(filename: string, name: string): boolean {
  return !isUserFrame(filename, name);
}

/** Frames of the stack-capturing and allocator machinery: never the answer to "who allocated". */
const CAPTURE_FRAME_PREFIXES = [
  'torch::unwind::',
  'torch::CapturedTraceback::',
  'torch::cuda::(anonymous namespace)::gather',
  'c10::cuda::',
];

export function isCaptureFrame(name: string): boolean {
  return CAPTURE_FRAME_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * Object files and shared libraries (`thread48.o`, `libtorch.so.2.1`, `x.dll`): where a symbol
 * lives, never whose code it is. What `/\.(o|so(\.\d+)*|a|dylib|dll|pyd)$/` says, read from the
 * end of the name (the expression is tried at every dot of a name, a file's data).
 */
export function isBinaryFile(filename: string): boolean {
  if (BINARY_EXTENSIONS.some((extension) => filename.endsWith(extension))) return true;
  // `.so` followed by version numbers: drop `.<digits>` from the end while there is one.
  let end = filename.length;
  for (;;) {
    let digits = end;
    while (digits > 0 && isDigitCode(filename.charCodeAt(digits - 1))) digits--;
    if (digits === end || digits === 0 || filename[digits - 1] !== '.') break;
    end = digits - 1;
  }
  return end < filename.length && filename.endsWith('.so', end);
}

const BINARY_EXTENSIONS = ['.o', '.so', '.a', '.dylib', '.dll', '.pyd'];

/** Python frames that only pass calls on (nn.Module.__call__, threads, `python -m`). */
const PLUMBING_PATHS = [
  '/torch/nn/modules/module.py',
  '/threading.py',
  '/runpy.py',
  '/torch/_dynamo/eval_frame.py',
];

function isPlumbing(filename: string): boolean {
  const rooted = rootedTorchPath(filename);
  return PLUMBING_PATHS.some((path) => rooted.endsWith(path) || rooted.includes(path));
}

function isTorchPython(filename: string): boolean {
  const rooted = rootedTorchPath(filename);
  return ['/torch/', '\\torch\\', '/torchinductor_'].some((part) => rooted.includes(part));
}

// Linear: each expression is tried only at a path separator and stops at the next one.
function isStandardLibrary(filename: string): boolean {
  return (
    filename.includes('<frozen ') ||
    (/[\\/]lib[\\/]python3[^\\/]*[\\/]/.test(filename) &&
      !/[\\/](site|dist)-packages[\\/]/.test(filename))
  );
}

/**
 * The autograd Node a C++ frame runs: "AddmmBackward0", "AccumulateGrad"; null for others. What
 * `/^torch::autograd::(?:generated::)?(\w*Backward\w*|AccumulateGrad|CopySlices|PyNode)::\w+$/`
 * says of the qualified name, in one scan (`\w*Backward\w*` retried the word from each
 * "Backward" in it: quadratic in a long name).
 */
export function autogradNodeOf(name: string): string | null {
  return autogradNodeOfQualified(qualifiedNativeName(name));
}

function autogradNodeOfQualified(qualified: string): string | null {
  const PREFIX = 'torch::autograd::';
  if (!qualified.startsWith(PREFIX)) return null;
  let start = PREFIX.length;
  if (qualified.startsWith('generated::', start)) start += 'generated::'.length;
  const end = wordEnd(qualified, start);
  if (!qualified.startsWith('::', end) || wordEnd(qualified, end + 2) !== qualified.length)
    return null;
  if (end + 2 === qualified.length) return null;
  const node = qualified.slice(start, end);
  return AUTOGRAD_NODES.has(node) || node.includes('Backward') ? node : null;
}

const AUTOGRAD_NODES = new Set(['AccumulateGrad', 'CopySlices', 'PyNode']);

/**
 * The ATen operator a C++ frame enters: "to_dtype" for at::_ops::to_dtype::call. The outermost
 * one of a stack is what was asked for (a cast, a sum); those inside it only build its result
 * (empty_strided, which every new tensor goes through). `/^at::_ops::(\w+)::call$/`, scanned.
 */
export function atenOpOf(name: string): string | null {
  return atenOpOfQualified(qualifiedNativeName(name));
}

function atenOpOfQualified(qualified: string): string | null {
  const PREFIX = 'at::_ops::';
  const SUFFIX = '::call';
  if (!qualified.startsWith(PREFIX) || !qualified.endsWith(SUFFIX)) return null;
  const end = qualified.length - SUFFIX.length;
  if (end <= PREFIX.length || wordEnd(qualified, PREFIX.length) !== end) return null;
  return qualified.slice(PREFIX.length, end);
}

// ---------------------------------------------------------------------------------------------
// The rule

/**
 * What a stack's label says: the user's own code; a library's or PyTorch's Python code (no user
 * frame); the autograd Node being run (the backward threads); an ATen operator; another C++
 * function.
 */
export type StackLabelKind = 'user' | 'library' | 'autograd' | 'torch' | 'op' | 'native';

export interface StackLabel {
  /** Index of the frame the label names, in the stack's frames (innermost first). */
  index: number;
  kind: StackLabelKind;
  /** At most MAX_LABEL_LENGTH characters. */
  text: string;
}

// What the rule asks about one frame, as bits: some of its file, some of its name. Each answer
// reads the whole path or name (file data, up to megabytes), so a table of frames computes them
// once per path and name, not once per stack a frame is in (FrameFacts).
const PYTHON = 1 << 0;
const USER = 1 << 1;
/** Python code of a library other than PyTorch and the standard library. */
const LIBRARY = 1 << 2;
/** PyTorch's own Python code, past nn.Module's call plumbing. */
const TORCH = 1 << 3;
/** Not an object file or a shared library. */
const NOT_BINARY = 1 << 4;
const NODE = 1 << 5;
const OP = 1 << 6;
const ENGINE = 1 << 7;
/** A name a C++ label may show: not the stack capture or the allocator, `??` or nothing. */
const SHOWN_NAME = 1 << 8;
/** A C++ function qualified with `::` (not an interpreter or libc frame). */
const SCOPED = 1 << 9;
/** A frame a C++ label may name. */
const CANDIDATE = NOT_BINARY | SHOWN_NAME;
/** The bits are computed (a table's entries start at 0). */
const KNOWN = 1 << 15;

function fileFlagsOf(filename: string): number {
  let flags = isBinaryFile(filename) ? 0 : NOT_BINARY;
  if (isPythonFrame(filename)) {
    flags |= PYTHON;
    if (isUserFrame(filename)) flags |= USER;
    const torch = isTorchPython(filename);
    if (!torch && !isStandardLibrary(filename)) flags |= LIBRARY;
    if (torch && !isPlumbing(filename)) flags |= TORCH;
  }
  return flags;
}

function nameFlagsOf(name: string): number {
  let flags = 0;
  const qualified = qualifiedNativeName(name);
  if (autogradNodeOfQualified(qualified) !== null) flags |= NODE;
  if (atenOpOfQualified(qualified) !== null) flags |= OP;
  if (name.startsWith('torch::autograd::Engine::')) flags |= ENGINE;
  if (!isCaptureFrame(name) && name !== '??' && name !== '') flags |= SHOWN_NAME;
  if (name.includes('::')) flags |= SCOPED;
  return flags;
}

/** The texts a label may take from one frame, each at most MAX_LABEL_LENGTH characters. */
type LabelText = 'python' | 'node' | 'autograd-op' | 'op' | 'native';
/** Those of them that only depend on the frame's name. */
type NameText = Exclude<LabelText, 'python'>;

function nameTextOf(name: string, kind: NameText): string {
  switch (kind) {
    case 'node':
      return cut(`autograd: ${autogradNodeOf(name)}`);
    case 'autograd-op':
      return cut(`autograd: ${atenOpOf(name)}`);
    case 'op':
      return cut(`${atenOpOf(name)} (C++)`);
    case 'native':
      return cut(`${shortNativeName(name)} (C++)`);
  }
}

/**
 * "dir/file.py:12 name" cut at the start to `maxChars` ("…ir/file.py:12 name" keeps the file, the
 * line and the function), from the parts: the whole line is never built (its path or name may be
 * megabytes long).
 */
function pythonTextOf(shortPath: string, line: number, name: string, maxChars: number): string {
  const parts = [shortPath, `:${line < 0 ? '?' : line} `, name];
  let length = 0;
  for (const part of parts) length += part.length;
  if (length <= maxChars) return parts.join('');
  let kept = '';
  for (let i = parts.length - 1; i >= 0 && kept.length < maxChars - 1; i--) {
    const part = parts[i]!;
    kept = part.slice(Math.max(0, part.length - (maxChars - 1 - kept.length))) + kept;
  }
  return `…${kept}`;
}

/** The frames of one stack, innermost first, as the rule reads them. */
interface RuleFrames {
  readonly length: number;
  flags(index: number): number;
  text(index: number, kind: LabelText): string;
}

/**
 * The label of a stack (frames innermost first), or null when it has no frames. In order:
 *   1. the innermost frame of the user's own code ("model.py:62 forward");
 *   2. else the innermost Python frame of a library other than PyTorch (transformers, vllm);
 *   3. else the autograd Node being run ("autograd: AccumulateGrad"), or in the autograd
 *      engine between Nodes, the operator it runs ("autograd: to_dtype");
 *   4. else the innermost Python frame of PyTorch, past nn.Module's call plumbing;
 *   5. else the outermost ATen operator ("empty_strided (C++)");
 *   6. else the innermost C++ function past the stack capture and the allocator ("StorageImpl (C++)").
 * Never a `??` frame, an object file or a shared library, unless a stack holds nothing else.
 */
export function stackLabelOf(frames: readonly SourceFrame[]): StackLabel | null {
  // The facts of these frames alone, kept for no other stack.
  const facts = new FrameFacts({
    filename: frames.map((frame) => frame.filename),
    line: frames.map((frame) => frame.line),
    name: frames.map((frame) => frame.name),
  });
  return labelOf({
    length: frames.length,
    flags: (index) => facts.flags(index),
    text: (index, kind) => facts.text(index, kind),
  });
}

function labelOf(frames: RuleFrames): StackLabel | null {
  if (frames.length === 0) return null;
  const find = (bits: number): number => {
    for (let i = 0; i < frames.length; i++) if ((frames.flags(i) & bits) === bits) return i;
    return -1;
  };
  const label = (index: number, kind: StackLabelKind, text: LabelText): StackLabel => ({
    index,
    kind,
    text: frames.text(index, text),
  });

  const user = find(USER);
  if (user >= 0) return label(user, 'user', 'python');
  const library = find(LIBRARY);
  if (library >= 0) return label(library, 'library', 'python');
  const node = find(NODE);
  if (node >= 0) return label(node, 'autograd', 'node');
  let op = -1;
  for (let i = frames.length - 1; i >= 0 && op < 0; i--) if (frames.flags(i) & OP) op = i;
  // The autograd engine's own work between Nodes (casting, summing, freeing gradients).
  const engine = find(ENGINE);
  if (engine >= 0) {
    return op >= 0
      ? label(op, 'autograd', 'autograd-op')
      : { index: engine, kind: 'autograd', text: 'autograd engine' };
  }
  const torch = find(TORCH);
  if (torch >= 0) return label(torch, 'torch', 'python');
  if (op >= 0) return label(op, 'op', 'op');
  // A C++ function (qualified with ::) before interpreter and libc frames (`_PyEval_…`, `clone`).
  let native = find(CANDIDATE | SCOPED);
  if (native < 0) native = find(CANDIDATE);
  if (native < 0) native = 0;
  return frames.flags(native) & PYTHON
    ? label(native, 'torch', 'python')
    : label(native, 'native', 'native');
}

/** Cut at the end: C++ names and phrases keep their start. */
function cut(text: string, maxChars = MAX_LABEL_LENGTH): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`;
}

/**
 * What the label rule asks of each frame of a table, and the label texts and short lines of its
 * frames, each computed once per path and name: a frame is in many stacks, many frames may share
 * a name, and a path or name may be megabytes long (a file can hand one such name to thousands of
 * stacks for a few bytes each).
 */
export class FrameFacts {
  private readonly flagsById: Uint16Array;
  private readonly byFile = new Map<string, { flags: number; shortPath: string }>();
  private readonly byName = new Map<
    string,
    { flags: number; texts: Partial<Record<NameText, string>>; short?: string }
  >();
  private readonly pythonTexts = new Map<number, string>();
  private readonly seededShortLabels = new Map<number, string>();

  constructor(private readonly table: Pick<FrameTable, 'filename' | 'line' | 'name'>) {
    this.flagsById = new Uint16Array(table.name.length);
  }

  /** Takes the flags and short lines computed elsewhere (label-tables.ts: the decode worker). */
  seed(flags: Uint16Array, shortLabels: readonly string[]): void {
    this.flagsById.set(flags.subarray(0, this.flagsById.length));
    shortLabels.forEach((text, frameId) => this.seededShortLabels.set(frameId, text));
  }

  /** The flags of every frame of the table (each computed once). */
  allFlags(): Uint16Array {
    for (let frameId = 0; frameId < this.flagsById.length; frameId++) this.flags(frameId);
    return this.flagsById;
  }

  flags(frameId: number): number {
    let flags = this.flagsById[frameId] ?? 0;
    if (flags === 0) {
      flags = KNOWN | this.file(frameId).flags | this.name(frameId).flags;
      if (frameId < this.flagsById.length) this.flagsById[frameId] = flags;
    }
    return flags;
  }

  /** isUserFrame of the frame's file. */
  isUser(frameId: number): boolean {
    return (this.flags(frameId) & USER) !== 0;
  }

  text(frameId: number, kind: LabelText): string {
    if (kind !== 'python') {
      const facts = this.name(frameId);
      return (facts.texts[kind] ??= nameTextOf(this.table.name[frameId]!, kind));
    }
    let text = this.pythonTexts.get(frameId);
    if (text === undefined) {
      const { shortPath } = this.file(frameId);
      text = pythonTextOf(
        shortPath,
        this.table.line[frameId]!,
        this.table.name[frameId]!,
        MAX_LABEL_LENGTH,
      );
      this.pythonTexts.set(frameId, text);
    }
    return text;
  }

  /**
   * shortFrameLabel of the frame, at most SHORT_LABEL_CHARS long (a Python line cut at the start,
   * a C++ name at the end): what lists of frames show, and compare between stacks.
   */
  shortLabel(frameId: number): string {
    const seeded = this.seededShortLabels.get(frameId);
    if (seeded !== undefined) return seeded;
    if (this.flags(frameId) & PYTHON) {
      const { shortPath } = this.file(frameId);
      const { line, name } = this.table;
      return pythonTextOf(shortPath, line[frameId]!, name[frameId]!, SHORT_LABEL_CHARS);
    }
    const facts = this.name(frameId);
    return (facts.short ??= cut(shortNativeName(this.table.name[frameId]!), SHORT_LABEL_CHARS));
  }

  private file(frameId: number): { flags: number; shortPath: string } {
    const filename = this.table.filename[frameId]!;
    let facts = this.byFile.get(filename);
    if (facts === undefined) {
      facts = { flags: fileFlagsOf(filename), shortPath: shortFilePath(filename) };
      this.byFile.set(filename, facts);
    }
    return facts;
  }

  private name(frameId: number): {
    flags: number;
    texts: Partial<Record<NameText, string>>;
    short?: string;
  } {
    const name = this.table.name[frameId]!;
    let facts = this.byName.get(name);
    if (facts === undefined) {
      facts = { flags: nameFlagsOf(name), texts: {} };
      this.byName.set(name, facts);
    }
    return facts;
  }
}

const factsByTable = new WeakMap<FrameTable, FrameFacts>();

/** The FrameFacts of a frame table, made on first use and kept as long as the table. */
export function frameFactsOf(table: FrameTable): FrameFacts {
  let facts = factsByTable.get(table);
  if (facts === undefined) {
    facts = new FrameFacts(table);
    factsByTable.set(table, facts);
  }
  return facts;
}

/** The label of stack `stackId` of a table, its frames' facts read from frameFactsOf. */
function labelOfStackFrames(source: StackSource, stackId: number): StackLabel | null {
  const frameIds = stackFrameIds(source, stackId);
  const facts = frameFactsOf(source.frames);
  return labelOf({
    length: frameIds.length,
    flags: (index) => facts.flags(frameIds[index]!),
    text: (index, kind) => facts.text(frameIds[index]!, kind),
  });
}

/** Index of the frame a stack's label names (stackLabelOf); -1 when there are no frames. */
export function topUserFrameIndex(frames: readonly SourceFrame[]): number {
  return stackLabelOf(frames)?.index ?? -1;
}

/** Frame id of the frame a stack's label names; null for no stack or no frames. */
export function topUserFrameId(source: StackSource, stackId: number): number | null {
  const label = stackLabelOfStack(source, stackId);
  return label === null ? null : stackFrameIds(source, stackId)[label.index]!;
}

// Labels are asked for per row of tables, per holder and per tooltip: computed once per stack.
const labelCache = new WeakMap<StackSource['stacks'], Map<number, StackLabel | null>>();
// Labels computed elsewhere (label-tables.ts: in the decode worker), read on first use.
const givenLabels = new WeakMap<StackSource['stacks'], (stackId: number) => StackLabel | null>();

/** Labels of a stack table computed elsewhere: stackLabelOfStack reads them instead. */
export function giveStackLabels(
  stacks: StackSource['stacks'],
  labelOfStack: (stackId: number) => StackLabel | null,
): void {
  givenLabels.set(stacks, labelOfStack);
}

/** The label of stack `stackId` (stackLabelOf), cached per stack table; null for no stack. */
export function stackLabelOfStack(source: StackSource, stackId: number): StackLabel | null {
  let byStack = labelCache.get(source.stacks);
  if (byStack === undefined) {
    byStack = new Map();
    labelCache.set(source.stacks, byStack);
  }
  let label = byStack.get(stackId);
  if (label === undefined) {
    const given = givenLabels.get(source.stacks);
    label = given === undefined ? labelOfStackFrames(source, stackId) : given(stackId);
    byStack.set(stackId, label);
  }
  return label;
}

/** The label text of stack `stackId`; null when no stack was recorded. */
export function stackLabel(source: StackSource, stackId: number): string | null {
  return stackLabelOfStack(source, stackId)?.text ?? null;
}

/** The label text of stack `stackId`, NO_STACK_TEXT when no stack was recorded. */
export function describeStack(source: StackSource, stackId: number): string {
  return stackLabel(source, stackId) ?? NO_STACK_TEXT;
}

// ---------------------------------------------------------------------------------------------
// One frame in a line

/**
 * One frame in a short line, for lists of frames: "dir/file.py:12 name" (last two path parts)
 * for Python code, the short C++ name ("MulBackward0::apply", format/words.ts shortNativeName)
 * for native frames, which name no file people can open.
 */
export function shortFrameLabel(frame: SourceFrame): string {
  if (isPythonFrame(frame.filename)) return frameText(frame, 'short');
  return shortNativeName(frame.name);
}
