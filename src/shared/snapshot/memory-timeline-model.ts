// A memory timeline (./memory-timeline-reader.ts) as the columnar model a snapshot decodes to, so
// the timeline, Who holds it by category, the categories over time and every command read it
// unchanged. A timeline records bytes per category, not allocations: each category's bytes are
// laid out as allocations of their own (an `alloc` entry per growth, a `free_completed` per
// shrink) whose sum is, after every change, the category's level as PyTorch wrote it. A shrink
// frees the newest allocation of exactly its size in the category (a raw file's DESTROY is the
// CREATE of the same tensor, whose size it repeats), else the newest ones until it is covered,
// the last one's rest made again at once. Each allocation's `category` is PyTorch's word
// (TIMELINE_CATEGORIES), read by the holders as a file's own category.

import { formatBytes } from '../format/units';
import {
  ActionCode,
  CPU_DEVICE,
  KNOWN_ACTIONS,
  NO_STACK,
  type DeviceTrace,
  type SnapshotModel,
} from './model';
import { TIMELINE_CATEGORIES, type MemoryTimelineEvents } from './memory-timeline-reader';
import { emptyBlocks, emptySegments } from './no-allocator-state';
import { SnapshotFormatError } from './snapshot-error';

/** Said wherever a timeline's missing stacks, ops or segments would be looked for. */
export const TIMELINE_RECORDS =
  "a memory timeline (torch.profiler export_memory_timeline) records each category's bytes over time only: no stacks, ops, threads or allocator segments (open the same run's profiler trace with it for those: allocscope TRACE --memory-timeline TIMELINE, or both files together in the app)";

/** Synthetic addresses: one range per allocation, never reused (the table pairs by address). */
const ADDRESS_STEP = 512;

export function buildMemoryTimelineModel(events: MemoryTimelineEvents): SnapshotModel {
  const warnings: string[] = [TIMELINE_RECORDS];
  if (events.form === 'levels') {
    warnings.push(
      "a memory timeline's .json records each category's level per microsecond, not tensors: its allocations are the changes of those levels (the .raw.json.gz of the same export has one per tensor)",
    );
  }
  warnings.push(
    'a memory timeline does not say which device it was exported for (export_memory_timeline(path, device)): its memory is shown as cpu',
  );
  const trace = deviceTraceOf(events);
  return {
    source: 'memory-timeline',
    pickleProtocol: null,
    layout: 'dict',
    actionNames: [...KNOWN_ACTIONS],
    frames: { filename: [], name: [], line: [] },
    stacks: { offsets: new Uint32Array(1), frameIds: new Uint32Array(0) },
    streams: [0],
    pools: ['0,0'],
    strings: [...TIMELINE_CATEGORIES],
    traces: [trace],
    segments: emptySegments(),
    blocks: emptyBlocks(),
    allocatorSettings: null,
    externalAnnotations: [],
    warnings,
  };
}

interface Live {
  addr: number;
  bytes: number;
  /** False once freed: the lists below drop freed ones lazily, when they reach them. */
  alive: boolean;
}

/** One category's live allocations: in the order made, and by size (each newest last). */
class CategoryHeld {
  private readonly ordered: Live[] = [];
  private readonly bySize = new Map<number, Live[]>();

  add(live: Live): void {
    this.ordered.push(live);
    let same = this.bySize.get(live.bytes);
    if (same === undefined) this.bySize.set(live.bytes, (same = []));
    same.push(live);
  }

  /** The newest live allocation of exactly `bytes`, taken out; null when none. */
  takeExact(bytes: number): Live | null {
    return takeNewest(this.bySize.get(bytes));
  }

  /** The newest live allocation, taken out; null when none. */
  takeNewest(): Live | null {
    return takeNewest(this.ordered);
  }
}

function takeNewest(list: Live[] | undefined): Live | null {
  if (list === undefined) return null;
  while (list.length > 0) {
    const live = list.pop()!;
    if (!live.alive) continue;
    live.alive = false;
    return live;
  }
  return null;
}

function deviceTraceOf(events: MemoryTimelineEvents): DeviceTrace {
  const action: number[] = [];
  const addr: number[] = [];
  const sizeBytes: number[] = [];
  const timeUs: number[] = [];
  const categoryId: number[] = [];
  const held = TIMELINE_CATEGORIES.map(() => new CategoryHeld());
  let nextAddress = ADDRESS_STEP;
  const entry = (code: number, at: number, bytes: number, time: number, category: number): void => {
    action.push(code);
    addr.push(at);
    sizeBytes.push(bytes);
    timeUs.push(time);
    categoryId.push(category);
  };
  const make = (bytes: number, time: number, category: number): void => {
    const at = nextAddress;
    nextAddress += Math.ceil(bytes / ADDRESS_STEP) * ADDRESS_STEP + ADDRESS_STEP;
    held[category]!.add({ addr: at, bytes, alive: true });
    entry(ActionCode.alloc, at, bytes, time, category);
  };
  for (let i = 0; i < events.count; i++) {
    const time = events.timeUs[i]!;
    const category = events.category[i]!;
    const delta = events.deltaBytes[i]!;
    if (delta > 0) {
      make(delta, time, category);
      continue;
    }
    const live = held[category]!;
    let owed = -delta;
    const exact = live.takeExact(owed);
    if (exact !== null) {
      entry(ActionCode.free_completed, exact.addr, exact.bytes, time, category);
      continue;
    }
    while (owed > 0) {
      const freed = live.takeNewest();
      if (freed === null) {
        throw new SnapshotFormatError(
          `not a PyTorch memory timeline of a known shape: ${TIMELINE_CATEGORIES[category]} falls below 0 bytes at change ${i} (${formatBytes(owed)} destroyed that it never held)`,
        );
      }
      entry(ActionCode.free_completed, freed.addr, freed.bytes, time, category);
      owed -= freed.bytes;
    }
    if (owed < 0) make(-owed, time, category);
  }
  const length = action.length;
  return {
    device: CPU_DEVICE,
    length,
    action: Uint8Array.from(action),
    addr: Float64Array.from(addr),
    sizeBytes: Float64Array.from(sizeBytes),
    streamId: new Uint32Array(length),
    timeUs: Float64Array.from(timeUs),
    stackId: new Int32Array(length).fill(NO_STACK),
    deviceFreeBytes: new Map(),
    compileContextId: null,
    userMetadataId: null,
    categoryId: Int32Array.from(categoryId),
    activeBaselineBytes: 0,
    recordedReservedBytes: null,
  };
}
