// "Which line of MY code did this?" PyTorch stacks start deep inside the framework (C++ kernels,
// torch/nn/modules/...); the first frame outside it is what users recognise. The one rule for
// the app (tooltips, tables, CSV), the OOM explainer and the CLI's text summary.

import { frameText, NO_STACK_TEXT } from '../format/words';
import type { FrameTable } from '../snapshot/model';
import {
  frameAt,
  stackFrameIds,
  type SourceFrame,
  type StackSource,
} from '../snapshot/stack-source';

const FRAMEWORK_PATH_PARTS = [
  '/torch/',
  '\\torch\\',
  '/site-packages/',
  '/dist-packages/',
  '/lib/python3',
  '<frozen ',
  'torch/csrc/',
  '/c10/',
  '/aten/',
];
const NATIVE_EXTENSIONS = ['.cpp', '.cc', '.cu', '.h', '.hpp', '.c', '.cuh'];

export function isFrameworkFrame(filename: string, name: string): boolean {
  if (filename === '??' || filename === '' || name === '??') return true;
  if (NATIVE_EXTENSIONS.some((extension) => filename.endsWith(extension))) return true;
  return FRAMEWORK_PATH_PARTS.some((part) => filename.includes(part));
}

/** Frames of the stack-capturing and allocator machinery: never the answer to "who allocated". */
const CAPTURE_FRAME_PREFIXES = [
  'torch::unwind::',
  'torch::CapturedTraceback::',
  'torch::cuda::(anonymous namespace)::gather',
  'c10::cuda::CUDACachingAllocator::',
];

export function isCaptureFrame(name: string): boolean {
  return CAPTURE_FRAME_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * Index of the top user frame in a stack's frames (innermost first): the innermost frame outside
 * the framework; when every frame is the framework's (C++-only stacks, autograd threads), the
 * innermost frame past the stack capture and the allocator. -1 when there are no frames. The one
 * rule: the app (tooltips, tables, CSV), the OOM explainer, the JSON documents and the CLI all
 * pick the top frame with it.
 */
export function topUserFrameIndex(frames: readonly { filename: string; name: string }[]): number {
  if (frames.length === 0) return -1;
  const user = frames.findIndex((frame) => !isFrameworkFrame(frame.filename, frame.name));
  if (user >= 0) return user;
  const past = frames.findIndex((frame) => !isCaptureFrame(frame.name));
  return past < 0 ? 0 : past;
}

/** Frame id of a stack's top user frame (topUserFrameIndex); null for no stack or no frames. */
export function topUserFrameId(source: StackSource, stackId: number): number | null {
  const frameIds = stackFrameIds(source, stackId);
  const frames = Array.from(frameIds, (frameId) => frameAt(source.frames, frameId));
  const index = topUserFrameIndex(frames);
  return index < 0 ? null : frameIds[index]!;
}

/** "dir/file.py:12 name" of a frame id (format/words.ts frameText); NO_STACK_TEXT for none. */
export function describeFrame(source: { frames: FrameTable }, frameId: number | null): string {
  if (frameId === null) return NO_STACK_TEXT;
  return shortFrameLabel(frameAt(source.frames, frameId));
}

/** "dir/file.py:12 name" with the last two path parts; just the name without a file. */
export function shortFrameLabel(frame: SourceFrame): string {
  return frameText(frame, 'short');
}
