// Files opened together (dropped, or chosen in one Open): a profiler trace and its run's memory
// timeline open as one tab, the trace's allocations given the timeline's categories. What each
// file is comes from its first bytes (as for every file: never from its name); which timeline
// goes with which trace, when several of each come at once, from their names (the longest
// common start: `leak.pt.trace.json.gz` with `leak.memory-timeline.raw.json.gz`), since only
// their times tell for sure and those are read in the worker, which then refuses a wrong pair.

import { sniffInputFormat } from '@shared/snapshot/input-format';
import { jsonInputKind } from '@shared/snapshot/profiler-trace-sniff';
import { concatBytes } from '@shared/pickle/concat-bytes';

/** What is sniffed: as many bytes as the decoder reads to tell a file's kind. */
const HEAD_BYTES = 64 << 10;
/** Of a gzip file, at most this much is unpacked to find its first HEAD_BYTES. */
const GZIP_HEAD_BYTES = 1 << 20;

export interface FileToOpen {
  file: File;
  memoryTimeline?: File;
}

type Kind = 'profiler-trace' | 'memory-timeline' | 'other';

export async function pairMemoryTimelines(files: readonly File[]): Promise<FileToOpen[]> {
  if (files.length < 2) return files.map((file) => ({ file }));
  const kinds = await Promise.all(files.map((file) => kindOf(file).catch((): Kind => 'other')));
  const traces = files.filter((_, i) => kinds[i] === 'profiler-trace');
  const timelineOf = new Map<File, File>();
  files.forEach((timeline, i) => {
    if (kinds[i] !== 'memory-timeline') return;
    let best: File | null = null;
    let bestLength = -1;
    for (const trace of traces) {
      if (timelineOf.has(trace)) continue;
      const length = commonStart(trace.name, timeline.name);
      if (length > bestLength) {
        best = trace;
        bestLength = length;
      }
    }
    if (best !== null) timelineOf.set(best, timeline);
  });
  const paired = new Set(timelineOf.values());
  return files
    .filter((file) => !paired.has(file))
    .map((file) => {
      const memoryTimeline = timelineOf.get(file);
      return memoryTimeline === undefined ? { file } : { file, memoryTimeline };
    });
}

async function kindOf(file: File): Promise<Kind> {
  let head: Uint8Array = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  if (sniffInputFormat(head) === 'gzip') head = await gunzippedHead(file);
  if (sniffInputFormat(head) !== 'json') return 'other';
  const kind = jsonInputKind(head);
  return kind === 'snapshot' ? 'other' : kind;
}

/** The first HEAD_BYTES of a gzip file's content (fewer where it ends or is cut). */
async function gunzippedHead(file: File): Promise<Uint8Array> {
  const reader = file
    .slice(0, GZIP_HEAD_BYTES)
    .stream()
    .pipeThrough(new DecompressionStream('gzip'))
    .getReader();
  const parts: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < HEAD_BYTES) {
      const next = await reader.read();
      if (next.done) break;
      parts.push(next.value);
      length += next.value.length;
    }
  } catch {
    // The slice ends inside the gzip stream: what came out before is the head.
  } finally {
    void reader.cancel().catch(() => {});
  }
  return concatBytes(parts, length);
}

function commonStart(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
