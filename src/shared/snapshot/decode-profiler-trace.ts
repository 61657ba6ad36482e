// A profiler trace's bytes (the JSON, unpacked) to the model: its events streamed into columns
// (./profiler-trace-reader.ts), then put in order and built into devices and trace entries
// (./profiler-trace-model.ts).

import type { SnapshotModel } from './model';
import { buildProfilerTraceModel } from './profiler-trace-model';
import { readProfilerTraceEvents } from './profiler-trace-reader';

export async function decodeProfilerTrace(
  chunks: AsyncIterable<Uint8Array>,
): Promise<SnapshotModel> {
  return buildProfilerTraceModel(await readProfilerTraceEvents(chunks));
}
