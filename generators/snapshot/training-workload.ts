// The program whose memory the generator records: data-parallel training of a 24-layer GPT-style
// model (bf16 weights, AdamW, DDP gradient buckets on a side stream). Each step allocates the
// activations layer by layer, frees them in reverse during backward, makes short-lived
// temporaries, and now and then changes the batch shape (which fragments the cache), calls
// empty_cache(), or keeps a block alive on another stream (record_stream). Sizes and call sites
// are fixed per model (like real code); only their order and timing vary.

import type { AllocatorSim, SimBlock, SimContext } from './caching-allocator-sim';
import type { Prng } from './prng';
import type { Stack, StackCatalog, StackKind } from './stack-catalog';

/**
 * What an allocation truly is, in the categories allocscope classifies into (docs/categories.md):
 * the generator knows, so tests can hold the classification to it.
 */
export type TrueCategory =
  'parameter' | 'gradient' | 'optimizer_state' | 'activation' | 'temporary' | 'autograd_other';

const KiB = 1024;
const MiB = 1024 * KiB;

/** An allocation made at one call site of the program. */
interface Site {
  /** Bytes at batch scale 1 (sizes below 1 KiB do not scale). */
  readonly bytes: number;
  readonly stack: Stack;
  readonly freeStack: Stack;
  /** Used by the communication stream too, so its free completes later. */
  readonly deferred: boolean;
  readonly category: TrueCategory;
}

interface LayerPlan {
  readonly params: readonly Site[];
  /** The parameters' gradients (same sizes), made by AccumulateGrad in the first backward. */
  readonly grads: readonly Site[];
  readonly activations: readonly Site[];
  readonly temporaries: readonly Site[];
  readonly backward: readonly Site[];
}

export interface ModelPlan {
  readonly layers: readonly LayerPlan[];
  readonly embeddings: readonly Site[];
  readonly embeddingGrads: readonly Site[];
  readonly input: readonly Site[];
  readonly logits: Site;
  readonly lossUpcast: Site;
  readonly gradBucket: Site;
  readonly optimizerTemps: readonly Site[];
  readonly emptyCacheStack: Stack;
  readonly unwindStack: Stack;
  /** Allocated at the end of every step and never freed (a planted leak), or null. */
  readonly leak: Site | null;
}

const ACTIVATIONS = [
  16 * MiB,
  48 * MiB,
  16 * MiB,
  512 * KiB,
  16,
  16 * MiB,
  8 * MiB,
  16 * MiB,
  64 * MiB,
  64 * MiB,
  16 * MiB,
  64 * KiB,
];
const TEMPORARIES = [16 * MiB, 4 * MiB, 16 * MiB, 4 * KiB];
const BACKWARD = [16 * MiB, 48 * MiB, 64 * MiB, 4 * KiB, 16 * MiB];
const PARAMS = [
  6 * MiB,
  6 * KiB,
  2 * MiB,
  2 * KiB,
  8 * MiB,
  8 * KiB,
  8 * MiB,
  2 * KiB,
  2 * KiB,
  2 * KiB,
  2 * KiB,
  2 * KiB,
];
const OPTIMIZER_TEMPS = [24 * MiB, 96 * MiB, 4 * MiB, 48 * MiB, 12 * KiB, 8 * KiB];
/** Batch shapes as multiples of the base token count; a step keeps the previous one mostly. */
const SCALES = [0.5, 0.625, 0.75, 0.875, 1, 1.125, 1.25];

export function buildModelPlan(
  prng: Prng,
  catalog: StackCatalog,
  layerCount = 24,
  /** Bytes leaked every step (0: none). */
  leakBytesPerStep = 0,
): ModelPlan {
  const site = (
    bytes: number,
    kind: StackKind,
    category: TrueCategory,
    deferredChance = 0,
  ): Site => ({
    bytes,
    stack: prng.pick(catalog.ofKind(kind)),
    freeStack: prng.pick(catalog.ofKind('free')),
    deferred: prng.chance(deferredChance),
    category,
  });
  const layers: LayerPlan[] = [];
  for (let i = 0; i < layerCount; i++) {
    layers.push({
      params: PARAMS.map((b) => site(b, 'param', 'parameter')),
      grads: PARAMS.map((b) => site(b, 'grad', 'gradient')),
      activations: ACTIVATIONS.map((b) => site(b, 'forward', 'activation', 0.08)),
      temporaries: TEMPORARIES.map((b) => site(b, 'forward', 'temporary')),
      backward: BACKWARD.map((b) => site(b, 'backward', 'autograd_other')),
    });
  }
  const embeddingBytes = [50304 * 1024 * 2, 1024 * 1024 * 2];
  return {
    layers,
    embeddings: embeddingBytes.map((b) => site(b, 'param', 'parameter')),
    embeddingGrads: embeddingBytes.map((b) => site(b, 'grad', 'gradient')),
    // The input batch: PyTorch's profiler calls it INPUT, which is "autograd / other" here.
    input: [site(64 * KiB, 'input', 'autograd_other'), site(64 * KiB, 'input', 'autograd_other')],
    // The logits are kept for the loss's backward; the fp32 upcast is dropped at once.
    logits: site(8192 * 50304 * 2, 'forward', 'activation'),
    lossUpcast: site(8192 * 50304 * 4, 'forward', 'temporary'),
    gradBucket: site(25 * MiB, 'bucket', 'autograd_other'),
    optimizerTemps: OPTIMIZER_TEMPS.map((b) => site(b, 'optimizer', 'temporary')),
    emptyCacheStack: prng.pick(catalog.ofKind('empty-cache')),
    unwindStack: prng.pick(catalog.ofKind('free')),
    // Drawn last, so that a plan with a leak is the same plan plus the leak.
    leak: leakBytesPerStep > 0 ? site(leakBytesPerStep, 'leak', 'activation') : null,
  };
}

export interface WorkloadHooks {
  /** The context of an allocator call; an allocation's says what it truly is. */
  newContext(stack: Stack, category?: TrueCategory): SimContext;
  annotate(stage: 'START' | 'END', name: string): void;
  /** Asked once per step, after the forward pass: make this step hit an OOM. */
  oomNow(): boolean;
  /** A phase of the step starts with the next event (the truth tests hold phases to). */
  phase?(name: 'forward' | 'backward' | 'optimizer' | 'other', step: string): void;
}

interface Live {
  block: SimBlock;
  site: Site;
}

/** Thrown inside a step when an allocation failed; the step unwinds like a caught OOM. */
class StepAborted extends Error {}

export class TrainingWorkload {
  private step = 0;
  private scale = 1;
  private persistentReady = false;
  private readonly grads: SimBlock[] = [];
  private readonly live: Live[] = [];
  /** Backward temporaries and the gradient bucket: freed by unwind() if an allocation fails. */
  private readonly scratch: Live[] = [];
  private pending: { block: SimBlock; ctx: SimContext }[] = [];

  constructor(
    private readonly plan: ModelPlan,
    private readonly allocator: AllocatorSim,
    private readonly prng: Prng,
    private readonly hooks: WorkloadHooks,
    private readonly commStream: number,
    /** Every batch at this shape (a run at one sequence length), or null: shapes vary. */
    private readonly fixedScale: number | null = null,
  ) {}

  /** Runs steps until the hooks stop it by throwing (or maxSteps). */
  run(maxSteps = Number.MAX_SAFE_INTEGER): void {
    // Drawn with a fixed shape too, so that runs of two shapes differ only in their sizes.
    const first = this.prng.pick(SCALES.slice(2));
    this.scale = this.fixedScale ?? first;
    this.initParams();
    while (this.step < maxSteps) {
      try {
        this.trainStep();
      } catch (error) {
        if (!(error instanceof StepAborted)) throw error;
        this.unwind();
      }
      this.step++;
    }
  }

  private initParams(): void {
    for (const s of this.plan.embeddings) this.alloc(s, 1);
    for (const layer of this.plan.layers) for (const s of layer.params) this.alloc(s, 1);
  }

  private trainStep(): void {
    const name = `ProfilerStep#${this.step}`;
    this.hooks.annotate('START', name);
    this.hooks.phase?.('forward', name);
    if (this.prng.chance(0.05)) {
      const next = this.prng.pick(SCALES);
      this.scale = this.fixedScale ?? next;
    }
    for (const s of this.plan.input) this.live.push({ block: this.alloc(s, this.scale), site: s });

    for (const layer of this.plan.layers) {
      for (const s of layer.activations)
        this.live.push({ block: this.alloc(s, this.scale), site: s });
      for (const s of layer.temporaries) this.free(this.alloc(s, this.scale), s);
    }
    const logits = this.alloc(this.plan.logits, this.scale);
    this.live.push({ block: logits, site: this.plan.logits });
    if (this.hooks.oomNow()) {
      // A sequence far longer than usual: the fp32 upcast of its logits cannot fit.
      const free =
        this.allocator.limitBytes -
        (this.allocator.reservedBytes - this.allocator.cachedFreeSegmentBytes);
      this.alloc(
        this.plan.lossUpcast,
        (free + this.prng.int(256, 4096) * MiB) / this.plan.lossUpcast.bytes,
      );
    }
    this.free(this.alloc(this.plan.lossUpcast, this.scale), this.plan.lossUpcast);

    this.hooks.phase?.('backward', name);
    this.backward();
    this.hooks.phase?.('optimizer', name);
    this.optimizerStep(name);
    // loss_history.append(loss) on a tensor that holds its memory: kept for good.
    if (this.plan.leak !== null) this.alloc(this.plan.leak, 1);
    this.hooks.annotate('END', name);
    if (this.prng.chance(0.02))
      this.allocator.emptyCache(this.hooks.newContext(this.plan.emptyCacheStack));
  }

  private backward(): void {
    const layers = this.plan.layers;
    const firstTime = !this.persistentReady;
    const scratch = this.scratch;
    this.freeLive(this.live.length - 1); // logits
    for (let i = layers.length - 1; i >= 0; i--) {
      const layer = layers[i]!;
      const bucket = scratch.length > 0 ? scratch[0]! : null; // kept across layers
      for (const s of layer.backward) scratch.push({ block: this.alloc(s, this.scale), site: s });
      if (firstTime) for (const s of layer.grads) this.grads.push(this.alloc(s, 1));
      // This layer's saved activations are the last ones on the live list.
      const first = this.live.length - layer.activations.length;
      for (let j = this.live.length - 1; j >= first; j--) this.freeLive(j);
      while (scratch.length > (bucket === null ? 0 : 1)) {
        const { block, site } = scratch.pop()!;
        this.free(block, site);
      }
      this.completePending();
      if (i % 4 === 0) {
        const next = this.alloc(this.plan.gradBucket, 1, this.commStream);
        if (bucket !== null) this.free(scratch.pop()!.block, this.plan.gradBucket);
        scratch.push({ block: next, site: this.plan.gradBucket });
      }
    }
    while (scratch.length > 0) this.free(scratch.pop()!.block, this.plan.gradBucket);
    if (firstTime) for (const s of this.plan.embeddingGrads) this.grads.push(this.alloc(s, 1));
  }

  private optimizerStep(step: string): void {
    this.hooks.annotate('START', 'Optimizer.step#AdamW.step');
    if (!this.persistentReady) {
      // exp_avg and exp_avg_sq in fp32 for every parameter, kept forever.
      for (const g of this.grads) {
        const site = this.plan.optimizerTemps[0]!;
        this.rawAlloc(g.requested * 2, site.stack, 0, 'optimizer_state');
        this.rawAlloc(g.requested * 2, site.stack, 0, 'optimizer_state');
      }
      this.persistentReady = true;
    }
    for (const s of this.plan.optimizerTemps) this.free(this.alloc(s, 1), s);
    this.hooks.annotate('END', 'Optimizer.step#AdamW.step');
    this.hooks.phase?.('other', step);
    while (this.live.length > 0) this.freeLive(this.live.length - 1); // the input batch
    this.completePending(true);
  }

  /** After a failed allocation: the exception unwinds and frees the step's tensors, then the
   *  handler empties the cache and goes on with the next batch. */
  private unwind(): void {
    const stack = this.plan.unwindStack;
    this.live.push(...this.scratch.splice(0));
    while (this.live.length > 0) {
      const { block } = this.live.pop()!;
      const ctx = this.hooks.newContext(stack);
      this.allocator.requestFree(block, ctx);
      this.allocator.completeFree(block, ctx);
    }
    this.completePending(true);
    this.allocator.emptyCache(this.hooks.newContext(this.plan.emptyCacheStack));
  }

  private alloc(site: Site, scale: number, stream = 0): SimBlock {
    const bytes =
      site.bytes < KiB ? site.bytes : Math.max(2, Math.round((site.bytes * scale) / 2) * 2);
    return this.rawAlloc(bytes, site.stack, stream, site.category);
  }

  private rawAlloc(bytes: number, stack: Stack, stream: number, category: TrueCategory): SimBlock {
    const block = this.allocator.malloc(bytes, stream, this.hooks.newContext(stack, category));
    if (block === null) throw new StepAborted();
    return block;
  }

  private free(block: SimBlock, site: Site): void {
    const ctx = this.hooks.newContext(site.freeStack);
    this.allocator.requestFree(block, ctx);
    this.allocator.completeFree(block, ctx);
  }

  /** Frees live[index] (which must be the last or near it), deferring it when it was used on the
   *  communication stream. */
  private freeLive(index: number): void {
    const [{ block, site }] = this.live.splice(index, 1) as [Live];
    const ctx = this.hooks.newContext(site.freeStack);
    this.allocator.requestFree(block, ctx);
    if (site.deferred) this.pending.push({ block, ctx });
    else this.allocator.completeFree(block, ctx);
  }

  /** The communication stream caught up: complete the deferred frees (all, or those from before
   *  the current layer). */
  private completePending(all = false): void {
    const keep = all ? 0 : Math.min(this.pending.length, 1);
    const done = this.pending.slice(0, this.pending.length - keep);
    this.pending = this.pending.slice(this.pending.length - keep);
    for (const { block, ctx } of done) this.allocator.completeFree(block, ctx);
  }
}
