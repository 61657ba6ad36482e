// What each figure means and what to hold it against: the one glossary of the app's help, the
// README ("What the figures mean", kept equal by a test) and the names every view, export and
// CLI table gives its figures (FIGURE). A figure shown in two places carries the same name in
// both; two different figures never share one.
//
// PyTorch's own counters, for the comparisons (c10/cuda/CUDACachingAllocator.cpp):
// `allocated_bytes` (memory_allocated) drops a block when the program frees it, even while
// another stream still uses it; `active_bytes` and `requested_bytes` drop it only when it is
// really free (the trace's free_completed). Our "active" curve is requested bytes until
// free_completed, so it matches `requested_bytes`, not memory_allocated().

import { capitalized } from './words';

/** The names of the figures, as every view, export and CLI table writes them. */
export const FIGURE = {
  active: 'active',
  activePeak: 'active peak',
  allocated: 'allocated',
  inUse: 'allocated + pending free',
  pendingFree: 'pending free',
  reserved: 'reserved',
  reservedPeak: 'reserved peak',
  notActive: 'reserved − active',
  cachedFree: 'cached free',
  rounding: 'rounding',
  largestFree: 'largest free block',
  baseline: 'baseline',
  merged: 'smaller allocations (merged)',
  noStack: 'no stack recorded',
  nvidiaSmi: 'nvidia-smi',
} as const;

export interface GlossaryEntry {
  term: string;
  meaning: string;
  /** What users hold the figure against: PyTorch's calls, nvidia-smi. */
  compareWith?: string;
}

export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    term: FIGURE.active,
    meaning:
      'Bytes the program requested for the tensors alive at that moment: each allocation counts its requested size from its alloc until the allocator really frees it (free_completed), so blocks pending free still count. The timeline’s stacked area and curve.',
    compareWith:
      '`torch.cuda.memory_stats()["requested_bytes.all.current"]` is the same figure. `torch.cuda.memory_allocated()` is close but not equal: it counts rounded block sizes and drops a block as soon as the program frees it.',
  },
  {
    term: FIGURE.activePeak,
    meaning:
      'The highest active value over the recorded trace, and the event after which it holds (the state at dump time when the file has no trace).',
    compareWith:
      '`torch.cuda.max_memory_allocated()`, which counts rounded block sizes since the last `reset_peak_memory_stats()` and so reads a little higher; a trace that starts mid-run can miss an earlier peak.',
  },
  {
    term: FIGURE.allocated,
    meaning:
      'Rounded sizes of the blocks handed out to tensors, without blocks pending free: what the caching allocator counts as allocated. PyTorch rounds every request up (to 512 B for small blocks, more for large ones), so allocated is usually a little above active.',
    compareWith: '`torch.cuda.memory_allocated()`.',
  },
  {
    term: FIGURE.inUse,
    meaning:
      'Rounded sizes of every block in use: allocated plus pending free. The segments view’s blocks; reserved minus this is cached free.',
    compareWith:
      '`torch.cuda.memory_stats()["active_bytes.all.current"]` (PyTorch calls these blocks active).',
  },
  {
    term: FIGURE.pendingFree,
    meaning:
      'Blocks the program freed that another stream still uses (`Tensor.record_stream`); the allocator reuses them only when that stream’s work is done. PyTorch’s `active_pending_free`.',
  },
  {
    term: FIGURE.reserved,
    meaning:
      'Bytes in the segments the caching allocator holds from CUDA (`cudaMalloc`, or the mapped pages of expandable segments): blocks in use plus cached free blocks.',
    compareWith: '`torch.cuda.memory_reserved()`.',
  },
  {
    term: FIGURE.reservedPeak,
    meaning: 'The highest reserved value over the recorded trace.',
    compareWith: '`torch.cuda.max_memory_reserved()`.',
  },
  {
    term: FIGURE.notActive,
    meaning:
      'Reserved bytes no live allocation requested: cached free blocks plus rounding inside blocks in use.',
    compareWith:
      '`torch.cuda.memory_reserved() - torch.cuda.memory_stats()["requested_bytes.all.current"]`.',
  },
  {
    term: FIGURE.cachedFree,
    meaning:
      'Free blocks inside reserved segments, kept for reuse (external fragmentation when no request fits in them).',
    compareWith:
      '`torch.cuda.memory_reserved() - torch.cuda.memory_stats()["active_bytes.all.current"]`; `torch.cuda.empty_cache()` returns the segments that are wholly free.',
  },
  {
    term: FIGURE.rounding,
    meaning:
      'Bytes inside blocks in use beyond what was requested (internal fragmentation): allocated + pending free minus active.',
  },
  {
    term: FIGURE.largestFree,
    meaning:
      'The largest single free block: the largest request that fits without reserving a new segment (in its pool and stream).',
    compareWith:
      'The OOM message’s “reserved by PyTorch but unallocated”, which is all cached free memory, not one piece.',
  },
  {
    term: FIGURE.baseline,
    meaning:
      'A curve’s value before the first trace entry: what was already there when recording started, worked back from the state at dump time.',
  },
  {
    term: FIGURE.merged,
    meaning:
      'On the timeline, the allocations too small to draw as bands of their own at this zoom, drawn as one grey area up to the active curve; zoom in to see them one by one.',
  },
  {
    term: FIGURE.noStack,
    meaning:
      'Allocations without a recorded stack, drawn hatched: made before `torch.cuda.memory._record_memory_history()` started (they appear only in the state at dump time), or recorded without stacks.',
  },
  {
    term: FIGURE.nvidiaSmi,
    meaning:
      'Not in the snapshot. nvidia-smi shows the whole process: reserved, plus the CUDA context (commonly 300–500 MiB, more with many kernels loaded), plus memory taken outside PyTorch’s allocator (NCCL buffers, other libraries).',
    compareWith: 'reserved plus a few hundred MiB.',
  },
];

/** The glossary as Markdown, as the README's "What the figures mean" section lists it. */
export function glossaryMarkdown(): string {
  return GLOSSARY.map(
    (entry) =>
      `- **${entry.term}**: ${entry.meaning}` +
      (entry.compareWith === undefined ? '' : ` Compare with: ${entry.compareWith}`),
  ).join('\n');
}

/** A figure's name as a label starting a line ("Active"): the glossary's term, capitalised. */
export function figureLabel(figure: (typeof FIGURE)[keyof typeof FIGURE]): string {
  return capitalized(figure);
}
