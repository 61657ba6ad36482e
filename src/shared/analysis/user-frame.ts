// "Which line of MY code did this?" PyTorch stacks start deep inside the framework (C++ kernels,
// torch/nn/modules/...); the first frame outside it is what users recognise.

import { NO_STACK, type SnapshotModel } from '../snapshot/model';

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

/** The innermost frame outside the framework; the innermost frame when all are framework; null for no stack. */
export function topUserFrameId(model: SnapshotModel, stackId: number): number | null {
  if (stackId === NO_STACK) return null;
  const { offsets, frameIds } = model.stacks;
  const start = offsets[stackId]!;
  const end = offsets[stackId + 1]!;
  for (let i = start; i < end; i++) {
    const frameId = frameIds[i]!;
    if (!isFrameworkFrame(model.frames.filename[frameId]!, model.frames.name[frameId]!))
      return frameId;
  }
  return end > start ? frameIds[start]! : null;
}

export function describeFrame(model: SnapshotModel, frameId: number | null): string {
  if (frameId === null) return '(no stack recorded)';
  const filename = model.frames.filename[frameId]!;
  const line = model.frames.line[frameId]!;
  const shortName = filename.split(/[\\/]/).slice(-2).join('/');
  return `${shortName}:${line < 0 ? '?' : line} ${model.frames.name[frameId]!}`;
}
