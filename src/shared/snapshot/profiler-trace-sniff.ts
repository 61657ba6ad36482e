// Whether a JSON input is a PyTorch profiler trace rather than a snapshot's JSON form: told from
// the content, never the name (TensorBoard's `*.pt.trace.json.gz`, a renamed `trace.json`). A
// trace is a dict whose top-level keys are the Chrome trace's (`traceEvents`, and what
// export_chrome_trace writes before it: `schemaVersion`, `deviceProperties`, …); a snapshot's are
// `segments`, `device_traces`. The first top-level key that tells decides, read from the first
// bytes through the same JSON reader.

import { JsonReader, type JsonVisitor } from '../json/json-reader';

/** Top-level keys of a Chrome trace as PyTorch and Kineto write them. */
const TRACE_KEYS = new Set([
  'traceEvents',
  'schemaVersion',
  'deviceProperties',
  'distributedInfo',
  'record_shapes',
  'profile_memory',
  'with_stack',
  'trace_id',
  'displayTimeUnit',
  'baseTimeNanoseconds',
  'traceName',
]);
/** Top-level keys of a snapshot's JSON form. */
const SNAPSHOT_KEYS = new Set([
  'segments',
  'device_traces',
  'traces',
  'allocator_settings',
  'external_annotations',
  'host_segments',
  'host_traces',
]);

class Decided extends Error {
  constructor(readonly trace: boolean) {
    super('decided');
  }
}

class TopLevelKeys implements JsonVisitor {
  private depth = 0;
  openObject(): void {
    this.depth++;
  }
  openArray(): void {
    // A top-level list is a snapshot's bare-list layout (or nothing we read): not a trace.
    if (this.depth === 0) throw new Decided(false);
    this.depth++;
  }
  closeObject(): void {
    this.depth--;
  }
  closeArray(): void {
    this.depth--;
  }
  key(name: string): void {
    if (this.depth !== 1) return;
    if (TRACE_KEYS.has(name)) throw new Decided(true);
    if (SNAPSHOT_KEYS.has(name)) throw new Decided(false);
  }
  value(): void {}
}

/** Whether the first bytes of a JSON input are a profiler trace's (false: read it as a snapshot). */
export function looksLikeProfilerTrace(head: Uint8Array): boolean {
  try {
    new JsonReader(new TopLevelKeys()).feed(head);
  } catch (error) {
    if (error instanceof Decided) return error.trace;
    // Not valid JSON where it decides: the snapshot's reader says what is wrong, as before.
    return false;
  }
  return false;
}
