// A model of PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp), faithful enough
// that the trace and the final segments of a generated snapshot agree with each other the way
// real ones do: 512-byte rounding, small (<= 1 MiB, 2 MiB segments) and large pools (20 MiB
// segments, or the size rounded to 2 MiB above 10 MiB), per-stream pools, best fit, splitting,
// merging of free neighbours, deferred frees (record_stream), releasing cached segments under
// memory pressure, and OOM.
//
// State changes happen before the matching trace event is emitted, so a simulation stopped by an
// exception thrown from the emitter leaves a state consistent with the events emitted so far.

import type { Stack } from './stack-catalog';

/** The recorded call context of an allocator call (PyTorch's GatheredContext). Calls sharing a
 *  context share one frames list object in the pickle. */
export interface SimContext {
  readonly id: number;
  readonly stack: Stack;
  /** Uses the stack's one shared list object instead of a list of its own. */
  readonly shared: boolean;
  /** Memo index of its frames list once written (-1 before). */
  memoIndex: number;
  /** Byte estimate bookkeeping: its list has been counted once. */
  counted: boolean;
  /** What an allocation made in this context truly is (for tests; never written to the file). */
  readonly category?: string;
}

export type TraceAction =
  'alloc' | 'free_requested' | 'free_completed' | 'segment_alloc' | 'segment_free' | 'oom';

/** For 'oom', addr carries device_free. */
export type TraceEmitter = (
  action: TraceAction,
  addr: number,
  size: number,
  stream: number,
  ctx: SimContext,
) => void;

export const BLOCK_INACTIVE = 0;
export const BLOCK_ALLOCATED = 1;
export const BLOCK_PENDING_FREE = 2;
export type BlockState = typeof BLOCK_INACTIVE | typeof BLOCK_ALLOCATED | typeof BLOCK_PENDING_FREE;

export interface SimBlock {
  addr: number;
  size: number;
  requested: number;
  state: BlockState;
  readonly segment: SimSegment;
  prev: SimBlock | null;
  next: SimBlock | null;
  /** Context of its last allocation (kept when freed, as PyTorch reports it for inactive blocks). */
  ctx: SimContext | null;
}

export interface SimSegment {
  readonly addr: number;
  readonly size: number;
  readonly stream: number;
  readonly large: boolean;
  head: SimBlock;
  readonly ctx: SimContext;
}

const MIN_BLOCK = 512;
const SMALL_SIZE = 1 << 20;
const SMALL_BUFFER = 2 << 20;
const LARGE_BUFFER = 20 << 20;
const MIN_LARGE_ALLOC = 10 << 20;
const ROUND_LARGE = 2 << 20;

function roundUp(n: number, multiple: number): number {
  return Math.ceil(n / multiple) * multiple;
}

/** Free blocks of one pool and stream, sorted by (size, address) for best fit. */
class FreeBlocks {
  private readonly items: SimBlock[] = [];

  /** First index whose block is >= (size, addr). */
  private lowerBound(size: number, addr: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const b = this.items[mid]!;
      if (b.size < size || (b.size === size && b.addr < addr)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // Shifting by hand: splice() allocates a result array on every call, and this is hot.
  insert(block: SimBlock): void {
    const items = this.items;
    const at = this.lowerBound(block.size, block.addr);
    items.push(block);
    for (let i = items.length - 1; i > at; i--) items[i] = items[i - 1]!;
    items[at] = block;
  }

  remove(block: SimBlock): void {
    const items = this.items;
    const at = this.lowerBound(block.size, block.addr);
    if (items[at] !== block) throw new Error('internal: free block not in its pool');
    for (let i = at; i < items.length - 1; i++) items[i] = items[i + 1]!;
    items.pop();
  }

  bestFit(size: number): SimBlock | undefined {
    return this.items[this.lowerBound(size, -1)];
  }
}

/** Device virtual addresses for segments; cudaMalloc tends to hand a freed range back. */
class AddressSpace {
  private next: number;
  private readonly freed = new Map<number, number[]>();

  constructor(base: number) {
    this.next = base;
  }

  take(size: number): number {
    const reusable = this.freed.get(size);
    if (reusable !== undefined && reusable.length > 0) return reusable.pop()!;
    const addr = this.next;
    this.next += roundUp(size, ROUND_LARGE);
    return addr;
  }

  release(addr: number, size: number): void {
    const list = this.freed.get(size);
    if (list === undefined) this.freed.set(size, [addr]);
    else list.push(addr);
  }
}

export interface AllocatorSimOptions {
  device: number;
  /** Bytes the allocator may reserve (device memory minus the CUDA context). */
  limitBytes: number;
  baseAddress: number;
  emit: TraceEmitter;
}

export class AllocatorSim {
  readonly device: number;
  readonly limitBytes: number;
  reservedBytes = 0;
  private readonly segments = new Set<SimSegment>();
  private readonly pools = new Map<number, { small: FreeBlocks; large: FreeBlocks }>();
  private readonly addresses: AddressSpace;
  private readonly emit: TraceEmitter;

  constructor(options: AllocatorSimOptions) {
    this.device = options.device;
    this.limitBytes = options.limitBytes;
    this.addresses = new AddressSpace(options.baseAddress);
    this.emit = options.emit;
  }

  /** Bytes held in segments that are entirely free (what releasing the cache would return). */
  get cachedFreeSegmentBytes(): number {
    let total = 0;
    for (const s of this.segments) if (isFullyFree(s)) total += s.size;
    return total;
  }

  /** Returns the block, or null after recording an OOM. */
  malloc(size: number, stream: number, ctx: SimContext): SimBlock | null {
    const rounded = size < MIN_BLOCK ? MIN_BLOCK : roundUp(size, MIN_BLOCK);
    const large = rounded > SMALL_SIZE;
    const pool = this.pool(stream, large);
    let block = pool.bestFit(rounded);
    if (block !== undefined) {
      pool.remove(block);
    } else {
      const segmentSize = large
        ? rounded < MIN_LARGE_ALLOC
          ? LARGE_BUFFER
          : roundUp(rounded, ROUND_LARGE)
        : SMALL_BUFFER;
      if (this.reservedBytes + segmentSize > this.limitBytes) {
        // cudaMalloc failed: free every cached segment and retry, as release_cached_blocks does.
        this.releaseCached(ctx);
        if (this.reservedBytes + segmentSize > this.limitBytes) {
          this.emit('oom', this.limitBytes - this.reservedBytes, rounded, stream, ctx);
          return null;
        }
      }
      block = this.newSegment(segmentSize, stream, large, ctx);
    }
    const remaining = block.size - rounded;
    if (large ? remaining > SMALL_SIZE : remaining >= MIN_BLOCK) {
      const rest: SimBlock = {
        addr: block.addr + rounded,
        size: remaining,
        requested: 0,
        state: BLOCK_INACTIVE,
        segment: block.segment,
        prev: block,
        next: block.next,
        ctx: null,
      };
      if (block.next !== null) block.next.prev = rest;
      block.next = rest;
      block.size = rounded;
      pool.insert(rest);
    }
    block.state = BLOCK_ALLOCATED;
    block.requested = size;
    block.ctx = ctx;
    this.emit('alloc', block.addr, size, stream, ctx);
    return block;
  }

  /** The user freed the block; with pending stream uses it stays active until completeFree(). */
  requestFree(block: SimBlock, ctx: SimContext): void {
    if (block.state !== BLOCK_ALLOCATED) throw new Error('internal: free of a block not allocated');
    block.state = BLOCK_PENDING_FREE;
    this.emit('free_requested', block.addr, block.requested, block.segment.stream, ctx);
  }

  completeFree(block: SimBlock, ctx: SimContext): void {
    if (block.state !== BLOCK_PENDING_FREE)
      throw new Error('internal: completing a free not requested');
    const addr = block.addr;
    const requested = block.requested;
    const pool = this.pool(block.segment.stream, block.segment.large);
    block.state = BLOCK_INACTIVE;
    block.requested = 0;
    const prev = block.prev;
    if (prev !== null && prev.state === BLOCK_INACTIVE) {
      pool.remove(prev);
      block.addr = prev.addr;
      block.size += prev.size;
      block.prev = prev.prev;
      if (prev.prev !== null) prev.prev.next = block;
      else block.segment.head = block;
    }
    const next = block.next;
    if (next !== null && next.state === BLOCK_INACTIVE) {
      pool.remove(next);
      block.size += next.size;
      block.next = next.next;
      if (next.next !== null) next.next.prev = block;
    }
    pool.insert(block);
    this.emit('free_completed', addr, requested, block.segment.stream, ctx);
  }

  /** torch.cuda.empty_cache(). */
  emptyCache(ctx: SimContext): void {
    this.releaseCached(ctx);
  }

  /** Live segments in address order, as in a snapshot. */
  listSegments(): SimSegment[] {
    return [...this.segments].sort((a, b) => a.addr - b.addr);
  }

  private releaseCached(ctx: SimContext): void {
    for (const segment of this.listSegments()) {
      if (!isFullyFree(segment)) continue;
      this.pool(segment.stream, segment.large).remove(segment.head);
      this.segments.delete(segment);
      this.reservedBytes -= segment.size;
      this.addresses.release(segment.addr, segment.size);
      this.emit('segment_free', segment.addr, segment.size, segment.stream, ctx);
    }
  }

  private newSegment(size: number, stream: number, large: boolean, ctx: SimContext): SimBlock {
    const addr = this.addresses.take(size);
    const segment = { addr, size, stream, large, ctx } as SimSegment;
    const block: SimBlock = {
      addr,
      size,
      requested: 0,
      state: BLOCK_INACTIVE,
      segment,
      prev: null,
      next: null,
      ctx: null,
    };
    segment.head = block;
    this.segments.add(segment);
    this.reservedBytes += size;
    this.emit('segment_alloc', addr, size, stream, ctx);
    return block;
  }

  private pool(stream: number, large: boolean): FreeBlocks {
    let pools = this.pools.get(stream);
    if (pools === undefined) {
      pools = { small: new FreeBlocks(), large: new FreeBlocks() };
      this.pools.set(stream, pools);
    }
    return large ? pools.large : pools.small;
  }
}

function isFullyFree(segment: SimSegment): boolean {
  return segment.head.state === BLOCK_INACTIVE && segment.head.next === null;
}
