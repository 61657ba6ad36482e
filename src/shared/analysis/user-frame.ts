// "Which line of MY code did this?" PyTorch stacks start deep inside the framework (the stack
// capture, the caching allocator, C++ kernels, torch/nn/modules/...); the innermost frame of the
// user's own Python code is what users recognise. When a stack has none (the autograd engine's
// threads, C++-only stacks), a short name for what PyTorch was doing: "autograd: AddmmBackward0",
// "empty_strided (C++)". The one rule for every label of a stack: the app (tooltips, legend,
// tables, CSV), the OOM explainer (verdicts, holders), the JSON documents and the CLI texts.

import { frameText, NO_STACK_TEXT, qualifiedNativeName, shortNativeName } from '../format/words';
import type { FrameTable } from '../snapshot/model';
import {
  frameAt,
  stackFrameIds,
  type SourceFrame,
  type StackSource,
} from '../snapshot/stack-source';

/** The longest label; longer ones are cut with "…" (the full frame is in the stack panel). */
export const MAX_LABEL_LENGTH = 100;

// ---------------------------------------------------------------------------------------------
// Kinds of frames

/** Python source files: what user code is written in (Jupyter cells are files too). */
const PYTHON_SOURCE = /\.(py|pyw|pyx)$/;
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
    PYTHON_SOURCE.test(filename) || INTERACTIVE_SOURCES.some((part) => filename.startsWith(part))
  );
}

/**
 * A frame of the user's own code: Python source outside PyTorch, installed packages and the
 * standard library. Never a native frame (`??`, `.cpp`, `thread48.o`, `libtorch.so`).
 */
export function isUserFrame(filename: string, _name?: string): boolean {
  return isPythonFrame(filename) && !FRAMEWORK_PATH_PARTS.some((part) => filename.includes(part));
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

/** Object files and shared libraries: where a symbol lives, never whose code it is. */
const BINARY_FILE = /\.(o|so(\.\d+)*|a|dylib|dll|pyd)$/;

/** Python frames that only pass calls on (nn.Module.__call__, threads, `python -m`). */
const PLUMBING_PATHS = [
  '/torch/nn/modules/module.py',
  '/threading.py',
  '/runpy.py',
  '/torch/_dynamo/eval_frame.py',
];

function isPlumbing(filename: string): boolean {
  return PLUMBING_PATHS.some((path) => filename.endsWith(path) || filename.includes(path));
}

function isTorchPython(filename: string): boolean {
  return ['/torch/', '\\torch\\', '/torchinductor_'].some((part) => filename.includes(part));
}

function isStandardLibrary(filename: string): boolean {
  return (
    filename.includes('<frozen ') ||
    (/[\\/]lib[\\/]python3[^\\/]*[\\/]/.test(filename) &&
      !/[\\/](site|dist)-packages[\\/]/.test(filename))
  );
}

/** The autograd Node a C++ frame runs: "AddmmBackward0", "AccumulateGrad"; null for others. */
function autogradNodeOf(name: string): string | null {
  const match =
    /^torch::autograd::(?:generated::)?(\w*Backward\w*|AccumulateGrad|CopySlices|PyNode)::\w+$/.exec(
      qualifiedNativeName(name),
    );
  return match === null ? null : match[1]!;
}

/**
 * The ATen operator a C++ frame enters: "to_dtype" for at::_ops::to_dtype::call. The outermost
 * one of a stack is what was asked for (a cast, a sum); those inside it only build its result
 * (empty_strided, which every new tensor goes through).
 */
function atenOpOf(name: string): string | null {
  const match = /^at::_ops::(\w+)::call$/.exec(qualifiedNativeName(name));
  return match === null ? null : match[1]!;
}

function findLast(frames: readonly SourceFrame[], test: (frame: SourceFrame) => boolean): number {
  for (let i = frames.length - 1; i >= 0; i--) if (test(frames[i]!)) return i;
  return -1;
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
  if (frames.length === 0) return null;
  const find = (test: (frame: SourceFrame) => boolean): number => frames.findIndex(test);

  const user = find((frame) => isUserFrame(frame.filename));
  if (user >= 0) return pythonLabel(frames, user, 'user');

  const library = find(
    (frame) =>
      isPythonFrame(frame.filename) &&
      !isTorchPython(frame.filename) &&
      !isStandardLibrary(frame.filename),
  );
  if (library >= 0) return pythonLabel(frames, library, 'library');

  const node = find((frame) => autogradNodeOf(frame.name) !== null);
  if (node >= 0) {
    const text = `autograd: ${autogradNodeOf(frames[node]!.name)}`;
    return { index: node, kind: 'autograd', text: cut(text) };
  }
  const op = findLast(frames, (frame) => atenOpOf(frame.name) !== null);
  // The autograd engine's own work between Nodes (casting, summing, freeing gradients).
  const engine = find((frame) => frame.name.startsWith('torch::autograd::Engine::'));
  if (engine >= 0) {
    return op >= 0
      ? { index: op, kind: 'autograd', text: cut(`autograd: ${atenOpOf(frames[op]!.name)}`) }
      : { index: engine, kind: 'autograd', text: 'autograd engine' };
  }

  const torch = find(
    (frame) =>
      isPythonFrame(frame.filename) && isTorchPython(frame.filename) && !isPlumbing(frame.filename),
  );
  if (torch >= 0) return pythonLabel(frames, torch, 'torch');

  if (op >= 0) return { index: op, kind: 'op', text: cut(`${atenOpOf(frames[op]!.name)} (C++)`) };

  const candidate = (frame: SourceFrame): boolean =>
    !isCaptureFrame(frame.name) &&
    frame.name !== '??' &&
    frame.name !== '' &&
    !BINARY_FILE.test(frame.filename);
  // A C++ function (qualified with ::) before interpreter and libc frames (`_PyEval_…`, `clone`).
  let native = find((frame) => candidate(frame) && frame.name.includes('::'));
  if (native < 0) native = find(candidate);
  if (native < 0) native = 0;
  const frame = frames[native]!;
  return isPythonFrame(frame.filename)
    ? pythonLabel(frames, native, 'torch')
    : { index: native, kind: 'native', text: cut(`${shortNativeName(frame.name)} (C++)`) };
}

function pythonLabel(
  frames: readonly SourceFrame[],
  index: number,
  kind: StackLabelKind,
): StackLabel {
  return { index, kind, text: cutFromStart(shortFrameLabel(frames[index]!)) };
}

/** Cut at the end: C++ names and phrases keep their start. */
function cut(text: string): string {
  return text.length <= MAX_LABEL_LENGTH ? text : `${text.slice(0, MAX_LABEL_LENGTH - 1)}…`;
}

/** Cut at the start: "…dir/file.py:12 name" keeps the file, the line and the function. */
function cutFromStart(text: string): string {
  return text.length <= MAX_LABEL_LENGTH ? text : `…${text.slice(-(MAX_LABEL_LENGTH - 1))}`;
}

/** Index of the frame a stack's label names (stackLabelOf); -1 when there are no frames. */
export function topUserFrameIndex(frames: readonly SourceFrame[]): number {
  return stackLabelOf(frames)?.index ?? -1;
}

/** Frame id of the frame a stack's label names; null for no stack or no frames. */
export function topUserFrameId(source: StackSource, stackId: number): number | null {
  const frameIds = stackFrameIds(source, stackId);
  const index = topUserFrameIndex(framesOf(source.frames, frameIds));
  return index < 0 ? null : frameIds[index]!;
}

// Labels are asked for per row of tables, per holder and per tooltip: computed once per stack.
const labelCache = new WeakMap<StackSource['stacks'], Map<number, StackLabel | null>>();

/** The label of stack `stackId` (stackLabelOf), cached per stack table; null for no stack. */
export function stackLabelOfStack(source: StackSource, stackId: number): StackLabel | null {
  let byStack = labelCache.get(source.stacks);
  if (byStack === undefined) {
    byStack = new Map();
    labelCache.set(source.stacks, byStack);
  }
  let label = byStack.get(stackId);
  if (label === undefined) {
    label = stackLabelOf(framesOf(source.frames, stackFrameIds(source, stackId)));
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

function framesOf(table: FrameTable, frameIds: Uint32Array): SourceFrame[] {
  return Array.from(frameIds, (frameId) => frameAt(table, frameId));
}
