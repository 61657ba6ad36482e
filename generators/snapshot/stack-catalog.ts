// The call stacks of a synthetic training job (a GPT-style model with DDP), shaped like the
// stacks PyTorch records with `_record_memory_history(context='all', stacks='all')`: innermost
// first, C++ allocator and ATen frames, then Python frames from torch and from the user's model
// and training script. Frame dicts are interned, so the same frame object appears in many
// stacks, as PyTorch's symbolizer de-duplicates them; that sharing is what the memo of a real
// file carries.

import type { Prng } from './prng';

// A type alias, not an interface, so that a Frame is assignable to a pickle dict value.
export type Frame = {
  readonly name: string;
  readonly filename: string;
  /** 2**64-1 (unknown line of a C frame) occurs in real files, hence bigint. */
  readonly line: number | bigint;
};

/** What code a stack is from: the generator gives each allocation a stack of its kind. */
export type StackKind =
  | 'forward'
  | 'backward'
  | 'optimizer'
  | 'free'
  /** A module's weights made on the GPU, or moved there by Module.to(). */
  | 'param'
  /** AccumulateGrad making a leaf's .grad. */
  | 'grad'
  /** DDP's gradient buckets, on the communication stream. */
  | 'bucket'
  /** The input batch copied to the GPU. */
  | 'input'
  /** A tensor the training loop keeps every step (loss_history.append(loss)): a leak. */
  | 'leak'
  | 'empty-cache';

export interface Stack {
  readonly id: number;
  readonly kind: StackKind;
  /** Innermost first; also used as the shared list object for contexts that share one. */
  readonly frames: readonly Frame[];
}

export interface StackCatalog {
  readonly stacks: readonly Stack[];
  readonly frameCount: number;
  ofKind(kind: StackKind): readonly Stack[];
}

const TORCH = '/opt/conda/lib/python3.11/site-packages/torch';
const USER = '/workspace/nanogpt';
const CSRC = '/pytorch';
const UNKNOWN_LINE = 2n ** 64n - 1n;

/** ATen ops: [op, implementation file under aten/src/ATen/native/cuda]. */
const FORWARD_OPS: readonly (readonly [string, string])[] = [
  ['addmm', 'Blas.cpp'],
  ['mm', 'Blas.cpp'],
  ['bmm', 'Blas.cpp'],
  ['gelu', 'ActivationGeluKernel.cu'],
  ['_softmax', 'SoftMax.cu'],
  ['native_layer_norm', 'layer_norm_kernel.cu'],
  ['add', 'BinaryOps.cpp'],
  ['mul', 'BinaryMulKernel.cu'],
  ['cat', 'Shape.cu'],
  ['embedding', 'Embedding.cu'],
  ['_scaled_dot_product_flash_attention', 'attention.cu'],
  ['native_dropout', 'Dropout.cu'],
  ['_log_softmax', 'SoftMax.cu'],
  ['nll_loss_forward', 'Loss.cu'],
  ['_to_copy', 'Copy.cu'],
  ['clone', 'Copy.cu'],
];
const BACKWARD_OPS: readonly (readonly [string, string, string])[] = [
  ['mm', 'Blas.cpp', 'MmBackward0'],
  ['addmm', 'Blas.cpp', 'AddmmBackward0'],
  ['gelu_backward', 'ActivationGeluKernel.cu', 'GeluBackward0'],
  ['native_layer_norm_backward', 'layer_norm_kernel.cu', 'NativeLayerNormBackward0'],
  ['_softmax_backward_data', 'SoftMax.cu', 'SoftmaxBackward0'],
  ['embedding_dense_backward', 'Embedding.cu', 'EmbeddingBackward0'],
  [
    '_scaled_dot_product_flash_attention_backward',
    'attention_backward.cu',
    'ScaledDotProductFlashAttentionBackward0',
  ],
  ['native_dropout_backward', 'Dropout.cu', 'NativeDropoutBackward0'],
  ['nll_loss_backward', 'Loss.cu', 'NllLossBackward0'],
  ['_log_softmax_backward_data', 'SoftMax.cu', 'LogSoftmaxBackward0'],
  ['sum', 'ReduceSumProdKernel.cu', 'AddBackward0'],
  ['cat', 'Shape.cu', 'SplitBackward0'],
];
const OPTIMIZER_OPS = [
  '_foreach_mul',
  '_foreach_add',
  '_foreach_addcdiv',
  '_foreach_sqrt',
  '_foreach_lerp',
  '_foreach_div',
];

/** Where the model's forward passes allocate: [module class, line, torch leaf frames]. */
const FORWARD_SITES: readonly (readonly [
  string,
  number,
  readonly (readonly [string, string, number])[],
])[] = [
  ['CausalSelfAttention', 56, [['forward', `${TORCH}/nn/modules/linear.py`, 125]]],
  ['CausalSelfAttention', 57, []],
  [
    'CausalSelfAttention',
    62,
    [['scaled_dot_product_attention', `${TORCH}/nn/functional.py`, 5730]],
  ],
  ['CausalSelfAttention', 64, []],
  ['CausalSelfAttention', 67, [['forward', `${TORCH}/nn/modules/linear.py`, 125]]],
  [
    'CausalSelfAttention',
    67,
    [
      ['forward', `${TORCH}/nn/modules/dropout.py`, 70],
      ['dropout', `${TORCH}/nn/functional.py`, 1425],
    ],
  ],
  ['MLP', 82, [['forward', `${TORCH}/nn/modules/linear.py`, 125]]],
  ['MLP', 83, [['forward', `${TORCH}/nn/modules/activation.py`, 734]]],
  ['MLP', 84, [['forward', `${TORCH}/nn/modules/linear.py`, 125]]],
  [
    'MLP',
    85,
    [
      ['forward', `${TORCH}/nn/modules/dropout.py`, 70],
      ['dropout', `${TORCH}/nn/functional.py`, 1425],
    ],
  ],
  ['LayerNorm', 24, [['layer_norm', `${TORCH}/nn/functional.py`, 2910]]],
  ['Block', 104, []],
  ['Block', 105, []],
  [
    'GPT',
    180,
    [
      ['forward', `${TORCH}/nn/modules/sparse.py`, 190],
      ['embedding', `${TORCH}/nn/functional.py`, 2551],
    ],
  ],
  ['GPT', 189, [['forward', `${TORCH}/nn/modules/linear.py`, 125]]],
  ['GPT', 190, [['cross_entropy', `${TORCH}/nn/functional.py`, 3494]]],
];

/** Which module calls which, with the calling line in the parent's forward. */
const PARENTS: Readonly<Record<string, readonly [string, number] | undefined>> = {
  CausalSelfAttention: ['Block', 104],
  MLP: ['Block', 105],
  LayerNorm: ['Block', 104],
  Block: ['GPT', 184],
  GPT: undefined,
};

/** Optional layers of framework code between the model and the training script. */
interface Wrappers {
  ddp: boolean;
  fsdp: boolean;
  compiled: boolean;
  hooks: boolean;
  ckpt: boolean;
}

class FrameInterner {
  private readonly frames = new Map<string, Frame>();

  get(name: string, filename: string, line: number | bigint): Frame {
    const key = `${name}\u0000${filename}\u0000${line}`;
    let frame = this.frames.get(key);
    if (frame === undefined) {
      // Key order name, filename, line: what PyTorch's py_symbolize builds.
      frame = { name, filename, line };
      this.frames.set(key, frame);
    }
    return frame;
  }

  get size(): number {
    return this.frames.size;
  }
}

/** Builds `count` distinct stacks (of depth 20-60) from a seed. */
export function buildStackCatalog(prng: Prng, count = 400): StackCatalog {
  const f = new FrameInterner();
  const cpp = (name: string, file: string, line: number | bigint): Frame => f.get(name, file, line);

  const allocChain = (): Frame[] => [
    cpp(
      'torch::CapturedTraceback::gather(bool, bool, bool)',
      `${CSRC}/torch/csrc/profiler/combined_traceback.cpp`,
      77,
    ),
    cpp(
      'torch::cuda::(anonymous namespace)::gather_with_cpp()',
      `${CSRC}/torch/csrc/cuda/memory_snapshot.cpp`,
      143,
    ),
    cpp(
      'c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(signed char, unsigned long, CUstream_st*)',
      `${CSRC}/c10/cuda/CUDACachingAllocator.cpp`,
      1180,
    ),
    cpp(
      'c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::malloc(void**, signed char, unsigned long, CUstream_st*)',
      `${CSRC}/c10/cuda/CUDACachingAllocator.cpp`,
      3290,
    ),
    cpp(
      'c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::allocate(unsigned long)',
      `${CSRC}/c10/cuda/CUDACachingAllocator.cpp`,
      3420,
    ),
    cpp(
      'at::TensorBase at::detail::_empty_generic<long>(c10::ArrayRef<long>, c10::Allocator*, c10::DispatchKeySet, c10::ScalarType, std::optional<c10::MemoryFormat>)',
      `${CSRC}/aten/src/ATen/EmptyTensor.cpp`,
      58,
    ),
    cpp(
      'at::detail::empty_cuda(c10::ArrayRef<long>, c10::ScalarType, std::optional<c10::Device>, std::optional<c10::MemoryFormat>)',
      `${CSRC}/aten/src/ATen/cuda/EmptyTensor.cpp`,
      24,
    ),
  ];
  const freeChain = (): Frame[] => [
    cpp(
      'torch::CapturedTraceback::gather(bool, bool, bool)',
      `${CSRC}/torch/csrc/profiler/combined_traceback.cpp`,
      77,
    ),
    cpp(
      'torch::cuda::(anonymous namespace)::gather_with_cpp()',
      `${CSRC}/torch/csrc/cuda/memory_snapshot.cpp`,
      143,
    ),
    cpp(
      'c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::free(c10::cuda::CUDACachingAllocator::Native::Block*)',
      `${CSRC}/c10/cuda/CUDACachingAllocator.cpp`,
      1398,
    ),
    cpp(
      'c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::free(void*)',
      `${CSRC}/c10/cuda/CUDACachingAllocator.cpp`,
      3180,
    ),
    cpp(
      'c10::cuda::CUDACachingAllocator::Native::local_raw_delete(void*)',
      `${CSRC}/c10/cuda/CUDACachingAllocator.cpp`,
      3625,
    ),
    cpp('c10::StorageImpl::~StorageImpl()', `${CSRC}/c10/core/StorageImpl.h`, 66),
    cpp('c10::TensorImpl::~TensorImpl()', `${CSRC}/c10/core/TensorImpl.cpp`, 75),
  ];
  const opFrames = (op: string, file: string): Frame[] => {
    const shard = (op.length * 7) % 5;
    return [
      cpp(
        `at::native::${op}_out_cuda(...)`,
        `${CSRC}/aten/src/ATen/native/cuda/${file}`,
        200 + op.length * 13,
      ),
      cpp(
        `at::(anonymous namespace)::wrapper_CUDA_${op}(...)`,
        `${CSRC}/build/aten/src/ATen/RegisterCUDA.cpp`,
        9000 + op.length * 97,
      ),
      cpp(
        `at::_ops::${op}::redispatch(c10::DispatchKeySet, ...)`,
        `${CSRC}/build/aten/src/ATen/Operators_${shard}.cpp`,
        3000 + op.length * 31,
      ),
      cpp(
        `torch::autograd::VariableType::(anonymous namespace)::${op}(c10::DispatchKeySet, ...)`,
        `${CSRC}/torch/csrc/autograd/generated/VariableType_${shard}.cpp`,
        11000 + op.length * 53,
      ),
      cpp(
        `at::_ops::${op}::call(...)`,
        `${CSRC}/build/aten/src/ATen/Operators_${shard}.cpp`,
        2900 + op.length * 31,
      ),
    ];
  };
  const py = (name: string, file: string, line: number): Frame => f.get(name, file, line);
  /** Where a Python call enters C++: the binding and the interpreter frames around it. */
  const pythonToCpp = (op: string): Frame[] => [
    cpp(
      `torch::autograd::THPVariable_${op}(_object*, _object*, _object*)`,
      `${CSRC}/torch/csrc/autograd/generated/python_torch_functions_${op.length % 3}.cpp`,
      4000 + op.length * 71,
    ),
    cpp('cfunction_call', '/usr/local/src/conda/python-3.11.9/Objects/methodobject.c', 542),
    cpp('_PyObject_MakeTpCall', '/usr/local/src/conda/python-3.11.9/Objects/call.c', 214),
    cpp('_PyEval_EvalFrameDefault', '/usr/local/src/conda/python-3.11.9/Python/ceval.c', 4769),
  ];
  const callImpl = (): Frame[] => [
    py('_call_impl', `${TORCH}/nn/modules/module.py`, 1747),
    py('_wrapped_call_impl', `${TORCH}/nn/modules/module.py`, 1736),
  ];
  const script = (line: number): Frame[] => [
    py('train_step', `${USER}/train.py`, line),
    py('main', `${USER}/train.py`, 402),
    py('<module>', `${USER}/train.py`, 455),
  ];
  const ddp = (): Frame[] => [
    ...callImpl(),
    py('_run_ddp_forward', `${TORCH}/nn/parallel/distributed.py`, 1469),
    py('forward', `${TORCH}/nn/parallel/distributed.py`, 1643),
    ...callImpl(),
  ];
  const compiled = (): Frame[] => [
    py('_fn', `${TORCH}/_dynamo/eval_frame.py`, 745),
    py('__call__', `${TORCH}/_dynamo/eval_frame.py`, 465),
  ];
  const checkpointed = (): Frame[] => [
    py('forward', `${TORCH}/utils/checkpoint.py`, 264),
    py('apply', `${TORCH}/autograd/function.py`, 575),
    py('checkpoint', `${TORCH}/utils/checkpoint.py`, 496),
    py('inner', `${TORCH}/_compile.py`, 32),
    py('_fn', `${TORCH}/_dynamo/eval_frame.py`, 838),
  ];
  const fsdp = (): Frame[] => [
    py('forward', `${TORCH}/distributed/fsdp/fully_sharded_data_parallel.py`, 863),
    py('_pre_forward', `${TORCH}/distributed/fsdp/_runtime_utils.py`, 415),
    py('_unshard', `${TORCH}/distributed/fsdp/_runtime_utils.py`, 299),
    ...callImpl(),
    py('_wrapped_call_impl', `${TORCH}/distributed/fsdp/wrap.py`, 61),
    py('decorate_context', `${TORCH}/utils/_contextlib.py`, 116),
    ...callImpl(),
  ];
  const hooks = (): Frame[] => [
    py('_call_impl', `${TORCH}/nn/modules/module.py`, 1857),
    py('inner', `${TORCH}/nn/modules/module.py`, 1805),
  ];
  const autogradThread = (): Frame[] => [
    cpp(
      'torch::autograd::Node::operator()(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)',
      `${CSRC}/torch/csrc/autograd/function.h`,
      184,
    ),
    cpp(
      'torch::autograd::call_function(std::shared_ptr<torch::autograd::GraphTask>&, torch::autograd::Node*, torch::autograd::InputBuffer&)',
      `${CSRC}/torch/csrc/autograd/engine.cpp`,
      1032,
    ),
    cpp(
      'torch::autograd::Engine::evaluate_function(...)',
      `${CSRC}/torch/csrc/autograd/engine.cpp`,
      1102,
    ),
    cpp(
      'torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)',
      `${CSRC}/torch/csrc/autograd/engine.cpp`,
      616,
    ),
    cpp(
      'torch::autograd::Engine::thread_init(int, std::shared_ptr<torch::autograd::ReadyQueue> const&, bool)',
      `${CSRC}/torch/csrc/autograd/engine.cpp`,
      422,
    ),
    cpp(
      'torch::autograd::python::PythonEngine::thread_init(int, std::shared_ptr<torch::autograd::ReadyQueue> const&, bool)',
      `${CSRC}/torch/csrc/autograd/python_engine.cpp`,
      94,
    ),
    cpp('execute_native_thread_routine', '??', UNKNOWN_LINE),
    cpp('start_thread', '??', UNKNOWN_LINE),
    cpp('clone3', '??', UNKNOWN_LINE),
  ];
  const backwardCall = (): Frame[] => [
    cpp('torch::autograd::Engine::execute(...)', `${CSRC}/torch/csrc/autograd/engine.cpp`, 1297),
    cpp(
      'torch::autograd::python::PythonEngine::execute(...)',
      `${CSRC}/torch/csrc/autograd/python_engine.cpp`,
      158,
    ),
    cpp(
      'THPEngine_run_backward(_object*, _object*, _object*)',
      `${CSRC}/torch/csrc/autograd/python_engine.cpp`,
      358,
    ),
    py('_engine_run_backward', `${TORCH}/autograd/graph.py`, 825),
    py('backward', `${TORCH}/autograd/__init__.py`, 353),
    py('backward', `${TORCH}/_tensor.py`, 626),
    ...script(305),
  ];

  /** Python frames from a module's forward line up to the training script. */
  const modulePath = (cls: string, line: number, wrap: Wrappers): Frame[] => {
    const frames: Frame[] = [];
    let current: string | undefined = cls;
    let currentLine = line;
    while (current !== undefined) {
      frames.push(py('forward', `${USER}/model.py`, currentLine));
      if (current === 'Block' && wrap.ckpt) frames.push(...checkpointed());
      if (current === 'Block' && wrap.fsdp) frames.push(...fsdp());
      frames.push(...(wrap.hooks ? hooks() : []), ...callImpl());
      const parent: readonly [string, number] | undefined = PARENTS[current];
      if (parent === undefined) break;
      [current, currentLine] = parent;
    }
    if (wrap.compiled) frames.push(...compiled());
    if (wrap.ddp) frames.push(...ddp());
    frames.push(...script(301));
    return frames;
  };

  const randomWrap = (): Wrappers => ({
    ddp: prng.chance(0.7),
    fsdp: prng.chance(0.2),
    compiled: prng.chance(0.3),
    hooks: prng.chance(0.3),
    ckpt: prng.chance(0.4),
  });

  const builders: Record<StackKind, () => Frame[]> = {
    forward: () => {
      const [cls, line, leaf] = prng.pick(FORWARD_SITES);
      const [op, file] = prng.pick(FORWARD_OPS);
      const leafFrames = leaf.map(([name, filename, l]) => py(name, filename, l));
      // Neighbouring lines of the same statement give distinct frames, as in real code.
      const at = line + prng.int(0, 2);
      return [
        ...allocChain(),
        ...opFrames(op, file),
        ...pythonToCpp(op),
        ...leafFrames,
        ...modulePath(cls, at, randomWrap()),
      ];
    },
    backward: () => {
      // The op that allocates and the autograd node that runs it vary independently (a node's
      // backward runs several ops).
      const [op, file] = prng.pick(BACKWARD_OPS);
      const [, , node] = prng.pick(BACKWARD_OPS);
      const apply = cpp(
        `torch::autograd::generated::${node}::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)`,
        `${CSRC}/torch/csrc/autograd/generated/Functions.cpp`,
        1000 + node.length * 41,
      );
      const tail = prng.chance(0.5)
        ? autogradThread()
        : [...autogradThread().slice(0, 3), ...backwardCall()];
      return [...allocChain(), ...opFrames(op, file), apply, ...tail];
    },
    optimizer: () => {
      const op = prng.pick(OPTIMIZER_OPS);
      return [
        ...allocChain(),
        ...opFrames(op, 'ForeachBinaryOpList.cu'),
        ...pythonToCpp(op),
        py(
          '_multi_tensor_adamw',
          `${TORCH}/optim/adamw.py`,
          prng.pick([580, 592, 605, 611, 620, 634]),
        ),
        py('_fused_adamw_fallback', `${TORCH}/optim/adamw.py`, 480),
        py('adamw', `${TORCH}/optim/adamw.py`, 464),
        py('_use_grad', `${TORCH}/optim/optimizer.py`, 79),
        py('step', `${TORCH}/optim/adamw.py`, 243),
        py('wrapper', `${TORCH}/optim/optimizer.py`, 487),
        py('wrapper', `${TORCH}/optim/lr_scheduler.py`, 124),
        ...script(311),
      ];
    },
    free: () => {
      const where = prng.int(0, 2);
      if (where === 0) {
        // A saved tensor released by autograd during backward.
        const [, , node] = prng.pick(BACKWARD_OPS);
        return [
          ...freeChain(),
          cpp(
            'torch::autograd::SavedVariable::reset_data()',
            `${CSRC}/torch/csrc/autograd/saved_variable.cpp`,
            87,
          ),
          cpp(
            `torch::autograd::generated::${node}::release_variables()`,
            `${CSRC}/torch/csrc/autograd/generated/Functions.h`,
            2000 + node.length * 17,
          ),
          ...autogradThread(),
        ];
      }
      if (where === 1) {
        // A temporary dropped at the end of a forward line.
        const [cls, line] = prng.pick(FORWARD_SITES);
        return [
          ...freeChain(),
          cpp(
            'THPVariable_subclass_dealloc(_object*)',
            `${CSRC}/torch/csrc/autograd/python_variable.cpp`,
            1810,
          ),
          ...modulePath(cls, line, randomWrap()),
        ];
      }
      return [
        ...freeChain(),
        cpp(
          'THPVariable_subclass_dealloc(_object*)',
          `${CSRC}/torch/csrc/autograd/python_variable.cpp`,
          1810,
        ),
        py('zero_grad', `${TORCH}/optim/optimizer.py`, prng.pick([955, 962, 975])),
        ...script(prng.pick([299, 314, 318])),
      ];
    },
    'empty-cache': () => [
      cpp(
        'c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::emptyCache()',
        `${CSRC}/c10/cuda/CUDACachingAllocator.cpp`,
        1560,
      ),
      cpp(
        'c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator::emptyCache()',
        `${CSRC}/c10/cuda/CUDACachingAllocator.cpp`,
        3330,
      ),
      py('empty_cache', `${TORCH}/cuda/memory.py`, 192),
      ...script(prng.pick([321, 333])),
    ],
    bucket: () => [
      ...allocChain(),
      ...opFrames('empty', 'TensorFactories.cpp'),
      cpp(
        'c10d::Reducer::initialize_buckets(std::vector<std::vector<unsigned long> >)',
        `${CSRC}/torch/csrc/distributed/c10d/reducer.cpp`,
        1080,
      ),
      cpp(
        'c10d::Reducer::mark_variable_ready(unsigned long)',
        `${CSRC}/torch/csrc/distributed/c10d/reducer.cpp`,
        870,
      ),
      ...autogradThread(),
    ],
    input: () => [
      ...allocChain(),
      ...opFrames('_to_copy', 'Copy.cu'),
      ...pythonToCpp('to'),
      py('to', `${TORCH}/_tensor.py`, 1401),
      py('get_batch', `${USER}/train.py`, prng.pick([131, 132, 140])),
      ...script(298),
    ],
    leak: () => [
      ...allocChain(),
      ...opFrames('clone', 'Copy.cu'),
      ...pythonToCpp('clone'),
      py('train_step', `${USER}/train.py`, 88),
      ...script(prng.pick([302, 304])),
    ],
    param: () => {
      const [cls, line] = prng.pick(FORWARD_SITES);
      if (prng.chance(0.5)) {
        // Built on the GPU (torch.device('cuda') as default device): the module's __init__.
        const [module, initLine] = prng.pick([
          ['linear', 106],
          ['sparse', 167],
          ['normalization', 203],
        ] as const);
        return [
          ...allocChain(),
          ...opFrames('empty', 'TensorFactories.cpp'),
          ...pythonToCpp('empty'),
          py('__init__', `${TORCH}/nn/modules/${module}.py`, initLine),
          py('__init__', `${USER}/model.py`, line - 20),
          py(`${cls}.__init__`, `${USER}/model.py`, prng.int(20, 60)),
          ...script(prng.pick([262, 264])),
        ];
      }
      // Built on the CPU and moved: model.to('cuda').
      return [
        ...allocChain(),
        ...opFrames('_to_copy', 'Copy.cu'),
        ...pythonToCpp('to'),
        py('convert', `${TORCH}/nn/modules/module.py`, 1340),
        py('_apply', `${TORCH}/nn/modules/module.py`, 927),
        py('_apply', `${TORCH}/nn/modules/module.py`, 900),
        py('_apply', `${TORCH}/nn/modules/module.py`, 900),
        py('to', `${TORCH}/nn/modules/module.py`, 1355),
        ...script(prng.pick([266, 268])),
      ];
    },
    grad: () => {
      const [op, file] = prng.pick([
        ['clone', 'Copy.cu'],
        ['zeros_like', 'TensorFactories.cpp'],
      ] as const);
      return [
        ...allocChain(),
        ...opFrames(op, file),
        cpp(
          'torch::autograd::AccumulateGrad::apply(std::vector<at::Tensor, std::allocator<at::Tensor> >&&)',
          `${CSRC}/torch/csrc/autograd/functions/accumulate_grad.cpp`,
          prng.pick([44, 61, 77]),
        ),
        ...autogradThread(),
      ];
    },
  };

  const shares: readonly (readonly [StackKind, number])[] = [
    ['forward', 0.38],
    ['backward', 0.24],
    ['free', 0.2],
    ['optimizer', 0.08],
    ['param', 0.04],
    ['grad', 0.03],
    ['bucket', 0.01],
    ['input', 0.01],
    ['leak', 0.005],
    ['empty-cache', 0.01],
  ];
  const stacks: Stack[] = [];
  const seen = new Set<string>();
  const byKind = new Map<StackKind, Stack[]>();
  for (const [kind, share] of shares) {
    const wanted = Math.max(3, Math.round(count * share));
    const list: Stack[] = [];
    for (let attempt = 0; list.length < wanted && attempt < wanted * 50; attempt++) {
      let frames = builders[kind]();
      // Depth 20-60 like real stacks: pad with interpreter frames, trim the outermost ones.
      while (frames.length < 20)
        frames = [
          ...frames.slice(0, 7),
          py('<lambda>', `${USER}/utils.py`, 10 + frames.length),
          ...frames.slice(7),
        ];
      if (frames.length > 60) frames = frames.slice(0, 60);
      const key = frames.map((frame) => `${frame.name}|${frame.filename}|${frame.line}`).join('\n');
      if (seen.has(key)) continue;
      seen.add(key);
      const stack: Stack = { id: stacks.length, kind, frames };
      stacks.push(stack);
      list.push(stack);
    }
    byKind.set(kind, list);
  }
  return {
    stacks,
    frameCount: f.size,
    ofKind: (kind) => byKind.get(kind) ?? [],
  };
}
