// The top-level keys of a snapshot (its JSON form as its pickle): what the model builder reads
// (json-snapshot.ts) and what tells a snapshot's JSON from a profiler trace's
// (profiler-trace-sniff.ts).

export const SNAPSHOT_KEYS: ReadonlySet<string> = new Set([
  'segments',
  'device_traces',
  'traces',
  'allocator_settings',
  'external_annotations',
  'host_segments',
  'host_traces',
]);
