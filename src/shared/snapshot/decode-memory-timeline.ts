// A memory timeline's bytes (the JSON, unpacked) to the model: its changes streamed into columns
// (./memory-timeline-reader.ts), then laid out as allocations per category
// (./memory-timeline-model.ts).

import type { SnapshotModel } from './model';
import { buildMemoryTimelineModel } from './memory-timeline-model';
import { readMemoryTimeline } from './memory-timeline-reader';

export async function decodeMemoryTimeline(
  chunks: AsyncIterable<Uint8Array>,
): Promise<SnapshotModel> {
  return buildMemoryTimelineModel(await readMemoryTimeline(chunks));
}
