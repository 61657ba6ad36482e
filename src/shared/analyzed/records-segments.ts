// Whether a file recorded the caching allocator's segments and blocks: a memory snapshot does, a
// PyTorch profiler trace does not (only its [memory] events), nor does its memory timeline. What needs them (the segments,
// fragmentation and OOM views, `allocscope segments`, the report's allocator figures) asks here.

import type { AnalyzedSnapshot } from './analyzed-snapshot';

export function recordsSegments(snapshot: Pick<AnalyzedSnapshot, 'source'>): boolean {
  return snapshot.source === undefined || snapshot.source === 'memory-snapshot';
}
