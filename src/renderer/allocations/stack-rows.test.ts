import { describe, expect, it } from 'vitest';
import { stackLabelOf } from '@shared/analysis/user-frame';
import type { StackFrame } from './allocation-facts';
import { foldText, stackRows, type StackRow } from './stack-rows';

function frame(filename: string, name: string, isFramework: boolean): StackFrame {
  return { filename, line: 1, name, isFramework };
}

// A typical stack from a real snapshot: capture and allocator frames, C++ kernels, nn.Module's
// plumbing, the user's line, more plumbing, the user's caller, the interpreter's start.
const CAPTURE = frame('??', 'torch::unwind::unwind()', true);
const ALLOCATOR = frame(
  'CUDACachingAllocator.cpp',
  'c10::cuda::CUDACachingAllocator::malloc',
  true,
);
const KERNEL = frame('??', 'at::detail::empty_cuda(c10::ArrayRef<long>)', true);
const MODULE = frame('/env/site-packages/torch/nn/modules/module.py', '_call_impl', true);
const FORWARD = frame('/home/me/model.py', 'forward', false);
const STEP = frame('/home/me/train.py', 'step', false);
const START = frame('??', '_start', true);
const FRAMES = [CAPTURE, ALLOCATOR, KERNEL, MODULE, FORWARD, MODULE, STEP, START];

/** Rows written as short strings: 'fold 0-4', 'label 4', 'user 6', 'framework 7'. */
const shape = (rows: StackRow[]): string[] =>
  rows.map((row) =>
    row.kind === 'fold' ? `fold ${row.start}-${row.end}` : `${row.role} ${row.index}`,
  );

describe('stackRows', () => {
  it('folds runs of framework frames, keeps user frames and lone framework frames', () => {
    const label = stackLabelOf(FRAMES)!.index;
    expect(label).toBe(4);
    expect(shape(stackRows(FRAMES, label, false))).toEqual([
      'fold 0-4',
      'label 4',
      'framework 5',
      'user 6',
      'framework 7',
    ]);
  });

  it('shows every frame with "show framework frames", and opened folds one by one', () => {
    expect(shape(stackRows(FRAMES, 4, true))).toEqual([
      'framework 0',
      'framework 1',
      'framework 2',
      'framework 3',
      'label 4',
      'framework 5',
      'user 6',
      'framework 7',
    ]);
    expect(shape(stackRows(FRAMES, 4, false, new Set([0])))).toEqual(
      shape(stackRows(FRAMES, 4, true)),
    );
  });

  it('keeps the labelled frame of a stack without user code in view', () => {
    const frames = [
      CAPTURE,
      ALLOCATOR,
      KERNEL,
      frame(
        '??',
        'torch::autograd::generated::MulBackward0::apply(std::vector<at::Tensor>&&)',
        true,
      ),
      frame('??', 'torch::autograd::Engine::evaluate_function()', true),
      START,
    ];
    const label = stackLabelOf(frames)!;
    expect(label.text).toBe('autograd: MulBackward0');
    expect(shape(stackRows(frames, label.index, false))).toEqual([
      'fold 0-3',
      'label 3',
      'fold 4-6',
    ]);
  });

  it('loses no frame and repeats none', () => {
    for (const show of [false, true]) {
      const covered = stackRows(FRAMES, 4, show).flatMap((row) =>
        row.kind === 'fold'
          ? Array.from({ length: row.end - row.start }, (_, i) => row.start + i)
          : [row.index],
      );
      expect(covered).toEqual(FRAMES.map((_, i) => i));
    }
  });

  it('says how many frames a fold holds', () => {
    expect(foldText({ start: 0, end: 17 })).toBe('17 framework frames');
    expect(foldText({ start: 3, end: 4 })).toBe('1 framework frame');
  });
});
