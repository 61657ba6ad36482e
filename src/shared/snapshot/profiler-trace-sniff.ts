// Whether a JSON input is a PyTorch profiler trace (or its memory timeline) rather than a
// snapshot's JSON form: told from the content, never the name (TensorBoard's
// `*.pt.trace.json.gz`, a renamed `trace.json`). A trace is a dict whose top-level keys are the
// Chrome trace's (`traceEvents`, and what export_chrome_trace writes before it: `schemaVersion`,
// `deviceProperties`, …); a snapshot's are `segments`, `device_traces`; a memory timeline is a
// list of lists. The first top-level key or item that tells decides, read from the first bytes
// through the same JSON reader.

import { JsonReader, type JsonScalar, type JsonVisitor } from '../json/json-reader';
import { SNAPSHOT_KEYS } from './snapshot-json-keys';

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

/** What a JSON input is: a snapshot's JSON form, a profiler trace, or a memory timeline. */
export type JsonInputKind = 'snapshot' | 'profiler-trace' | 'memory-timeline';

class Decided extends Error {
  constructor(readonly kind: JsonInputKind) {
    super('decided');
  }
}

class TopLevelKeys implements JsonVisitor {
  private depth = 0;
  private topIsList = false;
  /** Inside the first list of the top-level list, before its first item. */
  private firstInnerList = false;
  openObject(): void {
    // A dict in the top-level list: a snapshot's segments.
    if (this.depth === 1 && this.topIsList) throw new Decided('snapshot');
    this.notTimeline();
    this.depth++;
  }
  openArray(): void {
    // A list in the top-level list that starts with a number: export_memory_timeline's `[times,
    // sizes]` (.json) or its `[t_ns, action, bytes, category]` tuples (.raw.json.gz). A
    // snapshot's bare-list layout holds segment dicts; anything else is left to its reader.
    if (this.depth === 1 && this.topIsList) this.firstInnerList = true;
    else this.notTimeline();
    if (this.depth === 0) this.topIsList = true;
    this.depth++;
  }
  /** What follows the first inner list's opening was not a number: not a timeline. */
  private notTimeline(): void {
    if (this.firstInnerList) throw new Decided('snapshot');
  }
  closeObject(): void {
    this.depth--;
  }
  closeArray(): void {
    this.notTimeline();
    this.depth--;
  }
  key(name: string): void {
    if (this.depth !== 1) return;
    if (TRACE_KEYS.has(name)) throw new Decided('profiler-trace');
    if (SNAPSHOT_KEYS.has(name)) throw new Decided('snapshot');
  }
  value(value: JsonScalar): void {
    if (this.firstInnerList)
      throw new Decided(typeof value === 'number' ? 'memory-timeline' : 'snapshot');
  }
}

/** What the first bytes of a JSON input are ('snapshot' unless they tell otherwise). */
export function jsonInputKind(head: Uint8Array): JsonInputKind {
  try {
    new JsonReader(new TopLevelKeys()).feed(head);
  } catch (error) {
    if (error instanceof Decided) return error.kind;
    // Not valid JSON where it decides: the snapshot's reader says what is wrong, as before.
    return 'snapshot';
  }
  return 'snapshot';
}
