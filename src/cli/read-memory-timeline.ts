// --memory-timeline FILE: the same run's export_memory_timeline read beside a profiler trace and
// its categories given to the trace's allocations (shared/snapshot/enrich-with-timeline.ts).
// Whatever is wrong with it (unreadable, not a timeline, another run's) is said of that file.

import { basename } from 'node:path';
import { enrichWithMemoryTimeline } from '@shared/snapshot/enrich-with-timeline';
import { snapshotFormName } from '@shared/format/words';
import type { SnapshotModel } from '@shared/snapshot/model';
import { UsageError } from './cli-options';
import { forFile } from './file-failure';

/**
 * `read` with the timeline at `path` (null: none asked for) read by `readTimeline` into it. The
 * reader comes from the caller (./read-snapshot-file.ts), which reads both files the same way.
 */
export async function withMemoryTimeline<File extends { model: SnapshotModel; fileName: string }>(
  read: File,
  path: string | null,
  readTimeline: (path: string) => Promise<{ model: SnapshotModel }>,
): Promise<File> {
  if (path === null) return read;
  if (read.model.source !== 'profiler-trace') {
    throw new UsageError(
      `--memory-timeline gives the allocations of a PyTorch profiler trace their categories; ${read.fileName} is a ${snapshotFormName(read.model.pickleProtocol, read.model.source)}, not a trace`,
    );
  }
  return forFile(path, async () => {
    const timeline = await readTimeline(path);
    const { model } = enrichWithMemoryTimeline(read.model, timeline.model, basename(path));
    return { ...read, model };
  });
}
