// The OOM explainer: for every `oom` entry, what the failed request met (the allocator state
// after the entry, which the oom itself does not change), and a verdict in plain words. Without
// an oom, the same figures at the active peak answer "what if one more request came".
//
// Verdict rules (R = the request rounded like the allocator rounds it; the request's group is
// the default pool, the oom entry's stream, 'small' segments for R <= 1 MiB else 'large'):
//   fits-in-cache  the largest free block of the request's group is >= R;
//   process-limit  otherwise, when device_free alone is >= R: a new segment would have fitted on
//                  the device, so the allocator refused because of a cap on this process
//                  (set_per_process_memory_fraction), not for want of memory or of a large hole;
//   fragmentation  otherwise, when the device's cached free bytes + device_free >= R (the bytes
//                  were there, in holes too small to hold the request);
//   out-of-memory  otherwise (even one hole made of every cached free byte and all of
//                  device_free would have been too small: live tensors hold the memory).

import { aliveRowsAt } from '../holders/alive-rows';
import { CATEGORIES, CATEGORY_NAMES, type Category } from '../holders/categories';
import { categoriesOf, categoryAt } from '../holders/classify';
import { frameFactsOf, stackLabel, stackLabelOfStack } from '../analysis/user-frame';
import { stackFrameIds, type StackSource } from '../snapshot/stack-source';
import {
  allocatorStateIndexOf,
  BlockKind,
  type AllocatorState,
  type AllocatorStateIndex,
} from '../state/allocator-state';
import { postableDerivedKey } from '../analyzed/derived-cache';
import { roundedRequestBytes, SMALL_REQUEST_LIMIT_BYTES } from '../state/block-rounding';
import {
  emptyFigures,
  figuresByGroup,
  figuresOfState,
  smallHoleThreshold,
  type GroupFigures,
  type MemoryFigures,
} from '../state/memory-figures';
import { SegmentTypeCode } from '../analysis/segment-history';
import { formatBytes } from '../format/units';
import { deviceLabel, NO_STACK_TEXT, poolIdAt, segmentGroupPhrase } from '../format/words';
import { eventTimeUs } from '../analyzed/device-times';
import { sameSegmentGroup } from '../state/segment-groups';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import type { OomExplanation, OomHolder, OomHolderStack, OomVerdict } from './oom-explanation';

/** Holders listed per explanation. */
export const HOLDER_LIMIT = 10;
/** Holders named in the verdict text. */
const HOLDERS_IN_TEXT = 3;
/** Cached free bytes in other groups below this are not worth a clause of the verdict. */
const OTHER_GROUPS_NOTE_BYTES = 1024 * 1024;

export interface DeviceExplanations {
  /** One per `oom` entry, in trace order; empty when the trace has none. */
  ooms: OomExplanation[];
  /** The active peak as "what if", when there is no OOM. */
  peak: OomExplanation | null;
}

const EXPLANATIONS = postableDerivedKey<DeviceExplanations>('OOM explanations');

/** The OOMs of a device explained (or its peak as "what if"), once per device, kept with it. */
export function deviceExplanationsOf(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  stateIndex: AllocatorStateIndex = allocatorStateIndexOf(snapshot, snapshot.devices[deviceIndex]!),
): DeviceExplanations {
  return snapshot.devices[deviceIndex]!.derived.get(EXPLANATIONS, () => {
    const ooms = explainOoms(snapshot, deviceIndex, stateIndex);
    return {
      ooms,
      peak: ooms.length === 0 ? explainPeak(snapshot, deviceIndex, stateIndex) : null,
    };
  });
}

/** One explanation per `oom` entry of the device, in trace order. */
export function explainOoms(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  index: AllocatorStateIndex,
): OomExplanation[] {
  const device = deviceOf(snapshot, deviceIndex);
  if (device.ooms.length === 0) return [];
  const threshold = smallHoleThreshold(device);
  return device.ooms.map((oom) => {
    const state = index.stateAt(oom.eventIndex);
    const rounded = roundedRequestBytes(oom.requestedBytes, snapshot.allocatorSettings);
    const segmentType = rounded <= SMALL_REQUEST_LIMIT_BYTES ? 'small' : 'large';
    const facts = factsOf(snapshot, device, state, threshold, 0, oom.streamId, segmentType);
    const deviceFree = oom.deviceFreeBytes ?? 0;
    let verdict: OomVerdict;
    if (facts.group.largestFreeBytes >= rounded) verdict = 'fits-in-cache';
    else if (oom.deviceFreeBytes !== null && oom.deviceFreeBytes >= rounded) {
      verdict = 'process-limit';
    } else if (facts.totals.cachedFreeBytes + deviceFree >= rounded) verdict = 'fragmentation';
    else verdict = 'out-of-memory';
    const explanation = explanationOf(snapshot, device, oom.eventIndex, facts, verdict);
    explanation.requestedBytes = oom.requestedBytes;
    explanation.roundedRequestBytes = rounded;
    explanation.deviceFreeBytes = oom.deviceFreeBytes;
    explanation.verdictText = verdictText(explanation);
    return explanation;
  });
}

/** The active peak as a "what if": the figures a request arriving there would have met. */
export function explainPeak(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  index: AllocatorStateIndex,
): OomExplanation {
  const device = deviceOf(snapshot, deviceIndex);
  const event = device.figures.active.peakEventIndex;
  const state = index.stateAt(event);
  const threshold = smallHoleThreshold(device);
  // The group a large request would most likely use: the default pool's large segments on the
  // stream holding the most of them.
  const groups = figuresByGroup(state, threshold);
  const busiest =
    groups.find((g) => g.poolIndex === 0 && g.segmentType === SegmentTypeCode.large) ??
    groups.find((g) => g.poolIndex === 0);
  const streamId = busiest?.streamId ?? defaultStreamId(snapshot);
  const facts = factsOf(snapshot, device, state, threshold, 0, streamId, 'large', groups);
  const explanation = explanationOf(snapshot, device, event, facts, 'what-if');
  explanation.verdictText = verdictText(explanation);
  return explanation;
}

interface MomentFacts {
  totals: MemoryFigures;
  group: MemoryFigures;
  poolIndex: number;
  streamId: number;
  segmentType: 'large' | 'small';
  holders: OomHolder[];
}

function deviceOf(snapshot: AnalyzedSnapshot, deviceIndex: number): AnalyzedDevice {
  const device = snapshot.devices[deviceIndex];
  if (device === undefined) throw new RangeError(`no device at index ${deviceIndex}`);
  return device;
}

function defaultStreamId(snapshot: AnalyzedSnapshot): number {
  const zero = snapshot.streams.indexOf(0);
  return zero >= 0 ? zero : 0;
}

function factsOf(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  state: AllocatorState,
  threshold: number,
  poolIndex: number,
  streamId: number,
  segmentType: 'large' | 'small',
  groups: GroupFigures[] = figuresByGroup(state, threshold),
): MomentFacts {
  const typeCode = segmentType === 'small' ? SegmentTypeCode.small : SegmentTypeCode.large;
  const group =
    groups.find((g) => sameSegmentGroup(g, { poolIndex, streamId, segmentType: typeCode })) ??
    emptyFigures(threshold);
  return {
    totals: figuresOfState(state, threshold),
    group,
    poolIndex,
    streamId,
    segmentType,
    holders: holdersOf(snapshot, device, state),
  };
}

/**
 * Live allocations (allocated and pending-free blocks, and any outside every segment) grouped by
 * the label shown for them, their top user frame: two stacks through the same line are one row
 * (with both stacks inside), never two rows that read the same.
 */
export function holdersOf(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  state: AllocatorState,
  limit = HOLDER_LIMIT,
): OomHolder[] {
  const table = device.allocations;
  const byStack = new Map<number, { bytes: number; count: number }>();
  const add = (row: number): void => {
    const stackId = table.stackId[row]!;
    const entry = byStack.get(stackId);
    if (entry === undefined) byStack.set(stackId, { bytes: table.sizeBytes[row]!, count: 1 });
    else {
      entry.bytes += table.sizeBytes[row]!;
      entry.count += 1;
    }
  };
  const { blocks } = state;
  for (let b = 0; b < blocks.count; b++) {
    if (blocks.kind[b] !== BlockKind.free && blocks.allocationRow[b]! >= 0)
      add(blocks.allocationRow[b]!);
  }
  for (const row of state.outsideSegments) add(row);
  const byLabel = new Map<string | null, OomHolderStack[]>();
  for (const [stackId, { bytes, count }] of byStack) {
    const label = topFrameLabel(snapshot, stackId);
    const stacks = byLabel.get(label) ?? [];
    stacks.push({ stackId, via: null, bytes, count });
    byLabel.set(label, stacks);
  }
  const largestFirst = (a: OomHolderStack, b: OomHolderStack): number =>
    b.bytes - a.bytes || b.count - a.count || a.stackId - b.stackId;
  return [...byLabel.entries()]
    .map(([topFrame, stacks]): OomHolder => {
      stacks.sort(largestFirst);
      if (stacks.length > 1) {
        const vias = partingCallers(
          snapshot,
          stacks.map((stack) => stack.stackId),
        );
        stacks.forEach((stack, i) => (stack.via = vias[i]!));
      }
      return {
        stackId: stacks[0]!.stackId,
        topFrame,
        bytes: stacks.reduce((sum, stack) => sum + stack.bytes, 0),
        count: stacks.reduce((sum, stack) => sum + stack.count, 0),
        stacks,
      };
    })
    .sort((a, b) => b.bytes - a.bytes || b.count - a.count || a.stackId - b.stackId)
    .slice(0, limit);
}

/**
 * For each stack of a group (same top user frame), the first user frame outward from the top one
 * where the group's stacks part ways: what tells this stack apart from the others in its row
 * (null when nothing does, e.g. the stacks differ only in framework frames).
 */
function partingCallers(source: StackSource, stackIds: readonly number[]): (string | null)[] {
  // Frames tested and worded once per frame, not once per stack (a name may be megabytes long).
  const facts = frameFactsOf(source.frames);
  const outward = stackIds.map((stackId) => {
    const frameIds = Array.from(stackFrameIds(source, stackId));
    return frameIds.slice(Math.max(0, (stackLabelOfStack(source, stackId)?.index ?? -1) + 1));
  });
  // The user's callers first; where only the framework's frames differ (two paths through
  // torch into the same line), the first frame that differs at all.
  const userOnly = outward.map((frameIds) =>
    frameIds.filter((frameId) => facts.isUser(frameId)).map((frameId) => facts.shortLabel(frameId)),
  );
  const all = outward.map((frameIds) => frameIds.map((frameId) => facts.shortLabel(frameId)));
  for (const callers of [userOnly, all]) {
    const depth = Math.max(...callers.map((labels) => labels.length));
    for (let d = 0; d < depth; d++) {
      if (new Set(callers.map((labels) => labels[d] ?? null)).size > 1)
        return callers.map((labels) => labels[d] ?? null);
    }
  }
  return stackIds.map(() => null);
}

/**
 * The stack's label, as every view and output words it (analysis/user-frame.ts stackLabel):
 * "dir/file.py:12 name" of the top user frame, else what PyTorch was doing ("autograd:
 * AccumulateGrad"). null when no stack was recorded.
 */
export function topFrameLabel(source: StackSource, stackId: number): string | null {
  return stackLabel(source, stackId);
}

function explanationOf(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  event: number,
  facts: MomentFacts,
  verdict: OomVerdict,
): OomExplanation {
  return {
    device: device.device,
    event,
    timeUs: eventTimeUs(device, event),
    requestedBytes: null,
    roundedRequestBytes: null,
    deviceFreeBytes: null,
    reservedBytes: facts.totals.reservedBytes,
    activeBytes: facts.totals.activeBytes,
    cachedFreeBytes: facts.totals.cachedFreeBytes,
    largestFreeBytes: facts.totals.largestFreeBytes,
    poolIndex: facts.poolIndex,
    pool: poolIdAt(snapshot.pools, facts.poolIndex),
    stream: snapshot.streams[facts.streamId] ?? 0,
    segmentType: facts.segmentType,
    poolCachedFreeBytes: facts.group.cachedFreeBytes,
    poolLargestFreeBytes: facts.group.largestFreeBytes,
    expandableSegments: snapshot.allocatorSettings?.['expandable_segments'] === true,
    holders: facts.holders,
    categories: categoriesAt(snapshot, device, event),
    verdict,
    verdictText: '',
  };
}

/** Where the request would be served from, in words: "the default pool on the default stream (large segments)". */
export function describeRequestGroup(e: OomExplanation): string {
  return segmentGroupPhrase(e.pool, e.stream, e.segmentType);
}

function holdersClause(holders: readonly OomHolder[]): string {
  const named = holders
    .slice(0, HOLDERS_IN_TEXT)
    .map((h) => `${h.topFrame ?? NO_STACK_TEXT} (${formatBytes(h.bytes)})`);
  return named.length === 0 ? '' : ` The largest holders are ${named.join(', ')}.`;
}

/** The live bytes by category after `event` (built-in rules), largest first, none empty. */
export function categoriesAt(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  event: number,
): { category: Category; bytes: number }[] {
  const column = categoriesOf(snapshot, device);
  const bytes = new Map<Category, number>();
  for (const row of aliveRowsAt(device, event)) {
    const category = categoryAt(column, row);
    bytes.set(category, (bytes.get(category) ?? 0) + device.allocations.sizeBytes[row]!);
  }
  return [...bytes]
    .filter(([, total]) => total > 0)
    .sort((a, b) => b[1] - a[1] || CATEGORIES.indexOf(a[0]) - CATEGORIES.indexOf(b[0]))
    .map(([category, total]) => ({ category, bytes: total }));
}

/**
 * "Activations hold 41.0 GiB of the 78.0 GiB live at the OOM.": the largest category the rules
 * could name; nothing when everything is unknown.
 */
function categoryClause(e: OomExplanation, at: string): string {
  const known = e.categories.find((entry) => entry.category !== 'unknown');
  if (known === undefined) return '';
  const total = e.categories.reduce((sum, entry) => sum + entry.bytes, 0);
  const name = CATEGORY_NAMES[known.category];
  // "Activations hold", "Optimizer state holds".
  const verb = name.endsWith('s') ? 'hold' : 'holds';
  return ` ${name[0]!.toUpperCase()}${name.slice(1)} ${verb} ${formatBytes(known.bytes)} of the ${formatBytes(total)} live ${at}.`;
}

/** The verdict in plain words, with human units; every figure in it comes from the explanation. */
export function verdictText(e: OomExplanation): string {
  const request = formatBytes(e.roundedRequestBytes ?? 0);
  switch (e.verdict) {
    case 'fragmentation': {
      // The request's group is one of the device's groups, so this is >= 0; clamped all the
      // same, so that no explanation handed in (or an inconsistent file) prints a negative size.
      const others = Math.max(0, e.cachedFreeBytes - e.poolCachedFreeBytes);
      const where =
        others >= OTHER_GROUPS_NOTE_BYTES
          ? ` (${formatBytes(others)} of it in other pools, streams or segment sizes, which this request cannot use)`
          : '';
      const advice = e.expandableSegments
        ? 'expandable segments are already on, so the holes are pieces of pages that live ' +
          'tensors still share: free or reuse long-lived tensors sooner, allocate persistent ' +
          'buffers up front, or split the request into smaller pieces.'
        : 'PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True avoids this.'; // maps pages on demand
      return (
        `Fragmentation: ${formatBytes(e.cachedFreeBytes)} is cached free${where} but the largest ` +
        `hole in ${describeRequestGroup(e)} is ${formatBytes(e.poolLargestFreeBytes)} < the ` +
        `${request} request; ${advice}`
      );
    }
    case 'out-of-memory': {
      const free = e.deviceFreeBytes;
      const reach =
        free === null
          ? `the ${formatBytes(e.reservedBytes)} PyTorch had reserved (device_free was not recorded)`
          : `the ${formatBytes(e.reservedBytes + free)} PyTorch could reach (reserved ` +
            `${formatBytes(e.reservedBytes)} + device_free ${formatBytes(free)})`;
      const available = e.cachedFreeBytes + (free ?? 0);
      // explainOoms says out-of-memory only when the request exceeds what was available, so the
      // shortfall is positive; for any other explanation the clause is left out rather than
      // printing a shortfall of 0 or less.
      const shortfall = e.roundedRequestBytes === null ? 0 : e.roundedRequestBytes - available;
      const short =
        shortfall > 0
          ? `; the ${request} request was ${formatBytes(shortfall)} short ` +
            `even counting all ${formatBytes(e.cachedFreeBytes)} cached free as one block`
          : '';
      return (
        `Out of memory: live tensors hold ${formatBytes(e.activeBytes)} of ${reach}${short}.` +
        categoryClause(e, 'at the OOM') +
        holdersClause(e.holders)
      );
    }
    case 'process-limit':
      return (
        `Process limit: the GPU had ${formatBytes(e.deviceFreeBytes ?? 0)} free (device_free), ` +
        `enough for the ${request} request, yet the allocator refused it: this process was ` +
        `capped (torch.cuda.set_per_process_memory_fraction; the error's "allowed" figure is the ` +
        `cap). Live tensors hold ${formatBytes(e.activeBytes)} of the ` +
        `${formatBytes(e.reservedBytes)} reserved; raise the fraction or free memory.` +
        categoryClause(e, 'at the OOM') +
        holdersClause(e.holders)
      );
    case 'fits-in-cache':
      return (
        `Fits in cache: a ${formatBytes(e.poolLargestFreeBytes)} free block in ` +
        `${describeRequestGroup(e)} could have held the ${request} request, yet it failed; the ` +
        `request probably went to another pool or stream (a CUDA graph's private pool, a ` +
        `torch.cuda.MemPool), which the trace does not record.`
      );
    case 'what-if': {
      const where = e.event < 0 ? 'before the first trace entry' : `event ${e.event}`;
      if (e.reservedBytes === 0) {
        return `What if: at the active peak (${where}) PyTorch held no memory on ${deviceLabel(e.device)}.`;
      }
      const growth = e.expandableSegments
        ? 'more pages mapped into an expandable segment'
        : 'a new cudaMalloc of at least its size';
      const failure = e.expandableSegments
        ? ''
        : `; if the GPU had no room left, such a request of up to ` +
          `${formatBytes(e.cachedFreeBytes)} would fail by fragmentation ` +
          `(PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True avoids that)`;
      const next =
        e.poolLargestFreeBytes > 0
          ? `The next request larger than ${formatBytes(e.poolLargestFreeBytes)} in ` +
            `${describeRequestGroup(e)} would need`
          : `No free block is left in ${describeRequestGroup(e)}: its next request would need`;
      return (
        `What if: at the active peak (${where}), live tensors hold ${formatBytes(e.activeBytes)} ` +
        `of the ${formatBytes(e.reservedBytes)} reserved; ${formatBytes(e.cachedFreeBytes)} is ` +
        `cached free, the largest hole ${formatBytes(e.largestFreeBytes)}. ${next} ` +
        `${growth}${failure}.` +
        categoryClause(e, 'at the peak') +
        holdersClause(e.holders)
      );
    }
  }
}
