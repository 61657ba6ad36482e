import { describe, expect, it } from 'vitest';
import { SegmentTypeCode } from '../analysis/segment-history';
import {
  DEFAULT_POOL_ID,
  EXPANDABLE,
  frameLocation,
  frameText,
  qualifiedNativeName,
  shortNativeName,
  NO_STACK_TEXT,
  poolIdAt,
  poolName,
  poolNameAt,
  SEGMENT_TYPE_NAMES,
  segmentGroupName,
  segmentGroupPhrase,
  segmentsOfType,
  segmentTypeName,
  snapshotFormName,
  streamName,
  streamNameAt,
} from './words';

describe('pools', () => {
  it('names the default pool and private pools by their id as written', () => {
    expect(poolName(DEFAULT_POOL_ID)).toBe('default pool');
    expect(poolName('0,0')).toBe('default pool');
    expect(poolName('1,3')).toBe('private pool (1,3)');
    expect(poolName('0,2')).toBe('private pool (0,2)');
  });

  it('names pools by index into a snapshot’s pool ids', () => {
    const pools = ['0,0', '1,3'];
    expect(poolNameAt(pools, 0)).toBe('default pool');
    expect(poolNameAt(pools, 1)).toBe('private pool (1,3)');
    expect(poolNameAt(pools, 4)).toBe('private pool (4)');
    expect(poolNameAt([], 0)).toBe('default pool');
    expect(poolIdAt(pools, 1)).toBe('1,3');
    expect(poolIdAt([], 0)).toBe('0,0');
  });
});

describe('streams', () => {
  it('names the default stream and other streams by their raw cudaStream_t in hex', () => {
    expect(streamName(0)).toBe('default stream');
    expect(streamName(0x5a)).toBe('stream 0x5a');
    expect(streamName(123323568)).toBe('stream 0x759c4b0');
    expect(streamName(0x7f3c_1a2b_3c00)).toBe('stream 0x7f3c1a2b3c00');
    expect(streamName(undefined)).toBe('unknown stream');
    expect(streamName(Number.NaN)).toBe('unknown stream');
  });

  it('names streams by id into a snapshot’s raw stream values', () => {
    expect(streamNameAt([0, 0x5a], 0)).toBe('default stream');
    expect(streamNameAt([0, 0x5a], 1)).toBe('stream 0x5a');
    expect(streamNameAt([0x5a, 0], 1)).toBe('default stream');
    expect(streamNameAt([], 3)).toBe('unknown stream');
  });
});

describe('segment types', () => {
  it('uses the snapshot’s segment_type words, by the model’s codes', () => {
    expect(segmentTypeName(SegmentTypeCode.large)).toBe('large');
    expect(segmentTypeName(SegmentTypeCode.small)).toBe('small');
    expect(segmentTypeName(SegmentTypeCode.unknown)).toBe('unknown');
    expect(segmentTypeName(17)).toBe('unknown');
    // The codes of analysis/segment-history.ts index SEGMENT_TYPE_NAMES.
    for (const [name, code] of Object.entries(SegmentTypeCode))
      expect(SEGMENT_TYPE_NAMES[code]).toBe(name);
    expect(EXPANDABLE).toBe('expandable');
  });

  it('names segments of a type', () => {
    expect(segmentsOfType(SegmentTypeCode.large)).toBe('large segments');
    expect(segmentsOfType('small')).toBe('small segments');
    expect(segmentsOfType(SegmentTypeCode.unknown)).toBe('segments of unknown type');
    expect(segmentsOfType('unknown')).toBe('segments of unknown type');
  });
});

describe('groups', () => {
  it('titles a group: pool · stream · segments', () => {
    expect(segmentGroupName('0,0', 0, SegmentTypeCode.large)).toBe(
      'default pool · default stream · large segments',
    );
    expect(segmentGroupName('1,3', 0x5a, 'small')).toBe(
      'private pool (1,3) · stream 0x5a · small segments',
    );
  });

  it('says the same group in a sentence', () => {
    expect(segmentGroupPhrase('0,0', 0, 'large')).toBe(
      'the default pool on the default stream (large segments)',
    );
    expect(segmentGroupPhrase('0,2', 0x5a, SegmentTypeCode.small)).toBe(
      'the private pool (0,2) on stream 0x5a (small segments)',
    );
  });
});

describe('frames', () => {
  const user = { filename: '/home/me/project/train.py', line: 42, name: 'step' };
  const noLine = { filename: '/home/me/train.py', line: -1, name: '<module>' };
  const native = { filename: '??', line: 0, name: 'torch::unwind::unwind()' };
  const noFile = { filename: '', line: 0, name: 'at::native::empty_cuda' };
  const windows = { filename: 'C:\\work\\nn\\linear.py', line: 7, name: 'forward' };

  it('writes "file:line name", the path shortened to two parts unless asked for in full', () => {
    expect(frameText(user)).toBe('project/train.py:42 step');
    expect(frameText(user, 'full')).toBe('/home/me/project/train.py:42 step');
    expect(frameText(noLine)).toBe('me/train.py:? <module>');
    expect(frameText(windows)).toBe('nn/linear.py:7 forward');
  });

  it('writes the name alone for a frame without a file', () => {
    expect(frameText(native)).toBe('torch::unwind::unwind()');
    expect(frameText(native, 'full')).toBe('torch::unwind::unwind()');
    expect(frameText(noFile)).toBe('at::native::empty_cuda');
  });

  it('writes locations', () => {
    expect(frameLocation(user)).toBe('/home/me/project/train.py:42');
    expect(frameLocation(user, 'short')).toBe('project/train.py:42');
    expect(frameLocation(noLine)).toBe('/home/me/train.py:?');
  });

  it('has one text for a missing stack', () => {
    expect(NO_STACK_TEXT).toBe('(no stack recorded)');
  });
});

describe('C++ names', () => {
  // Symbols as the real snapshots in test/fixtures/real record them.
  const cases: [string, string, string][] = [
    [
      'at::detail::empty_strided_generic(c10::ArrayRef<long>, c10::ArrayRef<long>, c10::Allocator*, c10::DispatchKeySet, c10::ScalarType)',
      'at::detail::empty_strided_generic',
      'empty_strided_generic',
    ],
    [
      'c10::StorageImpl::StorageImpl(c10::StorageImpl::use_byte_size_t, c10::SymInt const&, c10::Allocator*, bool)',
      'c10::StorageImpl::StorageImpl',
      'StorageImpl',
    ],
    ['c10::StorageImpl::~StorageImpl()', 'c10::StorageImpl::~StorageImpl', '~StorageImpl'],
    [
      'c10::intrusive_ptr<c10::StorageImpl, c10::detail::intrusive_target_default_null_type<c10::StorageImpl> >::reset_not_null_(c10::StorageImpl*)',
      'c10::intrusive_ptr::reset_not_null_',
      'intrusive_ptr::reset_not_null_',
    ],
    [
      'void at::cuda::cub::detail::radix_sort_pairs_impl<long, 8>(long const*, long*, at::cuda::cub::detail::OpaqueType<8> const*, at::cuda::cub::detail::OpaqueType<8>*, long, bool, long, long)',
      'at::cuda::cub::detail::radix_sort_pairs_impl',
      'radix_sort_pairs_impl',
    ],
    [
      'void torch::autograd::AccumulateGrad::accumulateGrad<std::function<void (at::Tensor&&)> >(at::Tensor const&, at::Tensor&, at::Tensor const&, unsigned long, std::function<void (at::Tensor&&)> const&)',
      'torch::autograd::AccumulateGrad::accumulateGrad',
      'AccumulateGrad::accumulateGrad',
    ],
    [
      'c10::TensorImpl::~TensorImpl() [clone .localalias]',
      'c10::TensorImpl::~TensorImpl',
      '~TensorImpl',
    ],
    [
      'torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)',
      'torch::autograd::Node::operator()',
      'Node::operator()',
    ],
    [
      'dynamo__custom_eval_frame::{lambda()#1}::operator()() const',
      'dynamo__custom_eval_frame::{lambda()#1}::operator()',
      'dynamo__custom_eval_frame::operator()',
    ],
    [
      'torch::cuda::(anonymous namespace)::gather_with_cpp()',
      'torch::cuda::{anonymous}::gather_with_cpp',
      'gather_with_cpp',
    ],
    ['at::_ops::mm::call(at::Tensor const&, at::Tensor const&)', 'at::_ops::mm::call', 'mm::call'],
    [
      '_PyObject_FastCallDictTstate.localalias',
      '_PyObject_FastCallDictTstate',
      '_PyObject_FastCallDictTstate',
    ],
    ['forward', 'forward', 'forward'],
    ['<module>', '<module>', '<module>'],
  ];

  it('elides template arguments, parameters, return types and namespaces', () => {
    for (const [symbol, qualified, short] of cases) {
      expect(qualifiedNativeName(symbol), symbol).toBe(qualified);
      expect(shortNativeName(symbol), symbol).toBe(short);
    }
  });
});

describe('snapshotFormName', () => {
  it('names the pickle protocol, or the JSON form that has none', () => {
    expect(snapshotFormName(4)).toBe('pickle protocol 4');
    expect(snapshotFormName(null)).toBe('JSON form');
  });
});
