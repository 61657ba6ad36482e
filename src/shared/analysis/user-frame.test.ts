import { describe, expect, it } from 'vitest';
import { NO_STACK } from '../snapshot/model';
import { frameAt, stackFrameIds, type SourceFrame } from '../snapshot/stack-source';
import { TEST_FRAMES, TEST_STACKS } from '../../../test/support/builders/analyzed-device';
import {
  describeStack,
  isCaptureFrame,
  isFrameworkFrame,
  isUserFrame,
  MAX_LABEL_LENGTH,
  shortFrameLabel,
  stackLabel,
  stackLabelOf,
  topUserFrameId,
  topUserFrameIndex,
} from './user-frame';

const source = { frames: TEST_FRAMES, stacks: TEST_STACKS };
const framesOf = (stackId: number) =>
  Array.from(stackFrameIds(source, stackId), (frameId) => frameAt(TEST_FRAMES, frameId));

/** "file:line name" lines (as the snapshots record them) → frames, innermost first. */
function stack(...lines: string[]): SourceFrame[] {
  return lines.map((text) => {
    const match = /^(\S*):(-?\d+) (.*)$/.exec(text)!;
    return { filename: match[1]!, line: Number(match[2]), name: match[3]! };
  });
}

// Frames copied from the real snapshots in test/fixtures/real.
const CAPTURE = [
  '??:0 torch::unwind::unwind()',
  '??:0 torch::CapturedTraceback::gather(bool, bool, bool)',
  'memory_snapshot.cpp:0 torch::cuda::(anonymous namespace)::gather_with_cpp()',
  'CUDACachingAllocator.cpp:0 c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(signed char, unsigned long, CUstream_st*)',
  ':0 c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::allocate(unsigned long)',
];
const ENGINE = [
  ':0 torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)',
  '??:0 torch::autograd::Engine::evaluate_function(std::shared_ptr<torch::autograd::GraphTask>&, torch::autograd::Node*, torch::autograd::InputBuffer&, std::shared_ptr<torch::autograd::ReadyQueue> const&)',
  '??:0 torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)',
  'thread48.o:0 execute_native_thread_routine',
  './nptl/./nptl/pthread_create.c:447 start_thread',
  './misc/../sysdeps/unix/sysv/linux/x86_64/clone3.S:78 clone3',
];
const EMPTY_STRIDED = [
  '??:0 at::detail::empty_strided_generic(c10::ArrayRef<long>, c10::ArrayRef<long>, c10::Allocator*, c10::DispatchKeySet, c10::ScalarType)',
  '??:0 at::_ops::empty_strided::redispatch(c10::DispatchKeySet, c10::ArrayRef<c10::SymInt>, c10::ArrayRef<c10::SymInt>, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>)',
  '??:0 at::_ops::empty_strided::call(c10::ArrayRef<c10::SymInt>, c10::ArrayRef<c10::SymInt>, std::optional<c10::ScalarType>, std::optional<c10::Layout>, std::optional<c10::Device>, std::optional<bool>)',
];

describe('user frames', () => {
  it('are Python source outside PyTorch, installed packages and the standard library', () => {
    expect(isUserFrame('/home/me/train.py')).toBe(true);
    expect(isUserFrame('train.py')).toBe(true);
    expect(isUserFrame('/tmp/ipykernel_4242/2718281.py')).toBe(true);
    expect(isUserFrame('<ipython-input-3-5f1c>')).toBe(true);
    expect(isUserFrame('/env/lib/python3.11/site-packages/torch/nn/modules/module.py')).toBe(false);
    expect(isUserFrame('/env/lib/python3.11/site-packages/transformers/activations.py')).toBe(
      false,
    );
    expect(isUserFrame('/env/lib/python3.11/threading.py')).toBe(false);
    expect(isUserFrame('<frozen runpy>')).toBe(false);
    // Code torch.compile generated is not what the user wrote.
    expect(isUserFrame('/tmp/torchinductor_me/ik/cikcecxcrlok4stxbybh.py')).toBe(false);
  });

  it('are never native frames', () => {
    for (const filename of ['??', '', 'thread48.o', 'libtorch_cuda.so', 'libc.so.6', 'engine.cpp'])
      expect(isUserFrame(filename), filename).toBe(false);
  });

  it('tells the framework from user code on the test frames', () => {
    expect(
      TEST_FRAMES.filename.map((file, i) => isFrameworkFrame(file, TEST_FRAMES.name[i]!)),
    ).toEqual([true, true, true, false, false]);
  });

  it('knows the stack capture and allocator frames', () => {
    expect(TEST_FRAMES.name.map(isCaptureFrame)).toEqual([true, true, false, false, false]);
  });
});

describe('the label of a stack', () => {
  it('is the innermost frame of the user’s own code', () => {
    const frames = stack(
      ...CAPTURE,
      ...EMPTY_STRIDED,
      '/env/lib/python3.10/site-packages/torch/nn/functional.py:2072 silu',
      '/mnt/select_n/lib/transformers/activations.py:150 forward',
      '/env/lib/python3.10/site-packages/torch/nn/modules/module.py:1527 _call_impl',
      '/mnt/select_n/validate_old.py:63 validate',
    );
    expect(stackLabelOf(frames)).toEqual({
      index: CAPTURE.length + EMPTY_STRIDED.length + 1,
      kind: 'user',
      text: 'transformers/activations.py:150 forward',
    });
  });

  it('passes over code torch.compile generated to the user’s model', () => {
    const frames = stack(
      ...CAPTURE,
      '/tmp/torchinductor_me/ik/cikcecxcrlok4stxbybhhbunxzxxqbqw675ooprrkziohs52ixsi.py:1024 call',
      '/home/me/cs336_basics/transformer.py:205 forward',
    );
    expect(stackLabelOf(frames)?.text).toBe('cs336_basics/transformer.py:205 forward');
  });

  it('names the autograd Node of the backward threads, never the thread’s .o file', () => {
    const frames = stack(
      ...CAPTURE,
      '??:0 c10::StorageImpl::StorageImpl(c10::StorageImpl::use_byte_size_t, c10::SymInt const&, c10::Allocator*, bool)',
      ...EMPTY_STRIDED,
      ':0 void torch::autograd::AccumulateGrad::accumulateGrad<std::function<void (at::Tensor&&)> >(at::Tensor const&, at::Tensor&, at::Tensor const&, unsigned long, std::function<void (at::Tensor&&)> const&)',
      '??:0 torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)',
      ...ENGINE,
    );
    expect(stackLabelOf(frames)).toEqual({
      index: CAPTURE.length + 1 + EMPTY_STRIDED.length,
      kind: 'autograd',
      text: 'autograd: AccumulateGrad',
    });
    const backward = stack(
      ...CAPTURE,
      '??:0 torch::autograd::generated::AddmmBackward0::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)',
      ...ENGINE,
    );
    expect(stackLabelOf(backward)?.text).toBe('autograd: AddmmBackward0');
  });

  it('names the operator the autograd engine runs between Nodes, or the engine', () => {
    const cast = stack(
      ...CAPTURE,
      ...EMPTY_STRIDED,
      '??:0 at::_ops::to_dtype::call(at::Tensor const&, c10::ScalarType, bool, bool, std::optional<c10::MemoryFormat>)',
      'engine.cpp:0 void torch::autograd::validate_outputs_impl<torch::autograd::Edge>(std::vector<torch::autograd::Edge, std::allocator<torch::autograd::Edge> > const&)',
      ...ENGINE,
    );
    expect(stackLabelOf(cast)).toMatchObject({ kind: 'autograd', text: 'autograd: to_dtype' });
    const free = stack(
      ...CAPTURE,
      ':0 c10::intrusive_ptr<c10::StorageImpl, c10::detail::intrusive_target_default_null_type<c10::StorageImpl> >::reset_not_null_(c10::StorageImpl*)',
      ...ENGINE,
    );
    expect(stackLabelOf(free)).toMatchObject({ kind: 'autograd', text: 'autograd engine' });
  });

  it('names the outermost ATen operator of a C++-only stack', () => {
    const frames = stack(...CAPTURE, ...EMPTY_STRIDED, '??:0 clone');
    expect(stackLabelOf(frames)).toEqual({
      index: CAPTURE.length + 2,
      kind: 'op',
      text: 'empty_strided (C++)',
    });
  });

  it('names the first C++ function past the capture and the allocator, short', () => {
    const frames = stack(
      ...CAPTURE,
      '??:0 c10::StorageImpl::StorageImpl(c10::StorageImpl::use_byte_size_t, c10::SymInt const&, c10::Allocator*, bool)',
      'thread48.o:0 execute_native_thread_routine',
    );
    expect(stackLabelOf(frames)).toEqual({
      index: CAPTURE.length,
      kind: 'native',
      text: 'StorageImpl (C++)',
    });
    // Only interpreter and thread frames: never the object file.
    const bare = stack(...CAPTURE, 'thread48.o:0 execute_native_thread_routine', '??:0 clone');
    expect(stackLabelOf(bare)?.text).toBe('clone (C++)');
  });

  it('prefers a library’s Python code, then PyTorch’s past nn.Module’s plumbing', () => {
    const library = stack(
      ...CAPTURE,
      '/env/lib/python3.10/site-packages/torch/nn/functional.py:2072 silu',
      '/env/lib/python3.10/site-packages/vllm/worker/model_runner.py:88 execute',
    );
    expect(stackLabelOf(library)).toMatchObject({
      kind: 'library',
      text: 'worker/model_runner.py:88 execute',
    });
    const torch = stack(
      ...CAPTURE,
      '/env/lib/python3.11/site-packages/torch/nn/modules/module.py:1784 _call_impl',
      '/env/lib/python3.11/site-packages/torch/nn/parallel/parallel_apply.py:99 _worker',
      '/env/lib/python3.11/threading.py:982 run',
    );
    expect(stackLabelOf(torch)).toMatchObject({
      kind: 'torch',
      text: 'parallel/parallel_apply.py:99 _worker',
    });
  });

  it('is at most MAX_LABEL_LENGTH characters, keeping the file and function of a long path', () => {
    const file = `/home/me/${'deeply_nested_package_name/'.repeat(3)}${'m'.repeat(90)}.py`;
    const label = stackLabelOf(stack(`${file}:7 forward`))!.text;
    expect(label).toHaveLength(MAX_LABEL_LENGTH);
    expect(label.startsWith('…')).toBe(true);
    expect(label.endsWith('.py:7 forward')).toBe(true);
  });

  it('is null for no frames; the capture frame when a stack holds nothing else', () => {
    expect(stackLabelOf([])).toBeNull();
    expect(topUserFrameIndex([])).toBe(-1);
    expect(topUserFrameIndex(framesOf(0).slice(0, 2))).toBe(0);
  });

  it('on the test stacks: the user frame, or PyTorch’s Python frame', () => {
    expect(topUserFrameIndex(framesOf(0))).toBe(3);
    expect(topUserFrameIndex(framesOf(1))).toBe(1);
    expect(stackLabel(source, 0)).toBe('me/train.py:42 step');
    expect(stackLabel(source, 1)).toBe('modules/linear.py:125 forward');
    expect(stackLabel(source, NO_STACK)).toBeNull();
    expect(describeStack(source, NO_STACK)).toBe('(no stack recorded)');
  });
});

describe('topUserFrameId', () => {
  it('gives the frame id of the frame the label names', () => {
    expect(topUserFrameId(source, 0)).toBe(3);
    expect(topUserFrameId(source, 1)).toBe(2);
  });

  it('is null without a stack', () => {
    expect(topUserFrameId(source, NO_STACK)).toBeNull();
    expect(topUserFrameId(source, 99)).toBeNull();
  });
});

describe('shortFrameLabel', () => {
  it('writes Python frames with two path parts and C++ frames by their short name', () => {
    const frames = framesOf(0);
    expect(shortFrameLabel(frames[3]!)).toBe('me/train.py:42 step');
    expect(shortFrameLabel(frames[4]!)).toBe('me/train.py:? <module>');
    expect(shortFrameLabel(frames[0]!)).toBe('unwind');
    expect(shortFrameLabel(stack(CAPTURE[3]!)[0]!)).toBe('DeviceCachingAllocator::malloc');
  });
});
