// A trace opened together with its run's memory timeline (both dropped or chosen at once): the
// timeline decoded in the same worker and its categories given to the trace's allocations
// (shared/snapshot/enrich-with-timeline.ts). Whatever is wrong with the timeline is said of it,
// by name, in the one line the tab shows: the trace is not opened without what was asked for.

import { UnreadableInputError } from '@shared/errors/unreadable-input';
import { classifyDecodeError } from '@shared/snapshot/describe-decode-error';
import { decodeSnapshot } from '@shared/snapshot/decode-snapshot';
import { enrichWithMemoryTimeline } from '@shared/snapshot/enrich-with-timeline';
import type { SnapshotModel } from '@shared/snapshot/model';
import type { MemoryLimit } from '@shared/snapshot/unpacked-budget';
import { openSnapshotSource } from './snapshot-source';

export async function withMemoryTimeline(
  model: SnapshotModel,
  timeline: File,
  memoryLimit: MemoryLimit,
): Promise<SnapshotModel> {
  try {
    const source = await openSnapshotSource({ kind: 'file', file: timeline });
    const timelineModel = await decodeSnapshot(source.chunks, {
      totalBytes: timeline.size,
      memoryLimit,
      gzipIsize: source.gzipIsize,
    });
    return enrichWithMemoryTimeline(model, timelineModel, timeline.name).model;
  } catch (error) {
    const failure = classifyDecodeError(error);
    if (failure.kind === 'bug') throw error;
    throw new UnreadableInputError(`the memory timeline ${timeline.name}: ${failure.message}`);
  }
}
