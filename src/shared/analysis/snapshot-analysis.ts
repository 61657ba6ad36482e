// Everything the summary, the CLI and the views need per device, computed once after decoding.

import { formatBytes } from '../format/units';
import { deviceLabel } from '../format/words';
import {
  ActionCode,
  BlockStateCode,
  type DeviceTrace,
  type SnapshotModel,
} from '../snapshot/model';
import {
  activeDeltaSigns,
  freeingActionsOf,
  reservedDeltaSigns,
  type FreeingActions,
} from './action-semantics';
import { AddressMap } from './address-map';
import { ALIVE_AT_END, matchAllocations, type AllocationMatch } from './allocation-matching';
import { computeDeviceCurveStats, type CurveStats } from './curve-stats';
import { emptyFinalState, finalStateByDevice, type FinalState } from './final-state';
import { buildSegmentHistory, type SegmentHistory } from './segment-history';
import { countOf, nounFor } from '../format/plural';
import { SnapshotFormatError } from '../snapshot/snapshot-error';

export interface OomEvent {
  eventIndex: number;
  requestedBytes: number;
  deviceFreeBytes: number | null;
  /** Index into SnapshotModel.streams. */
  streamId: number;
}

export interface DeviceAnalysis {
  device: number;
  /** null when the device has segments but no trace entries. */
  trace: DeviceTrace | null;
  finalState: FinalState;
  /** Entry count by action code. */
  actionCounts: Uint32Array;
  freeing: FreeingActions;
  activeSigns: Int8Array;
  reservedSigns: Int8Array;
  active: CurveStats;
  reserved: CurveStats;
  match: AllocationMatch | null;
  ooms: OomEvent[];
  /** Every segment extent and when it existed (walked back from the final segments). */
  segmentHistory: SegmentHistory;
}

export interface SnapshotAnalysis {
  devices: DeviceAnalysis[];
  warnings: string[];
}

export function analyzeSnapshot(model: SnapshotModel): SnapshotAnalysis {
  const finalStates = finalStateByDevice(model);
  const tracesByDevice = new Map(model.traces.map((trace) => [trace.device, trace]));
  // CUDA devices in order, then pinned host memory (HOST_DEVICE, -1), then a profiler trace's
  // CPU memory (CPU_DEVICE, -2).
  const deviceIds = [...new Set([...finalStates.keys(), ...tracesByDevice.keys()])].sort(
    (a, b) => Number(a < 0) - Number(b < 0) || (a < 0 ? b - a : a - b),
  );
  const warnings = [...model.warnings];
  const devices = deviceIds.map((device) =>
    analyzeDevice(
      model,
      tracesByDevice.get(device) ?? null,
      finalStates.get(device) ?? emptyFinalState(device),
      warnings,
    ),
  );
  return { devices, warnings };
}

function analyzeDevice(
  model: SnapshotModel,
  trace: DeviceTrace | null,
  finalState: FinalState,
  warnings: string[],
): DeviceAnalysis {
  const device = finalState.device;
  // Warnings name CUDA devices as before ("device 0: …"), host memory by its label.
  const named = deviceLabel(device);
  const empty = trace ?? emptyTrace(device);
  const freeing = freeingActionsOf(empty);
  const activeSigns = activeDeltaSigns(freeing);
  const reservedSigns = reservedDeltaSigns();
  // A profiler trace records where its active curve starts and its reserved bytes (it has no
  // final segments to walk back from).
  const anchored = trace?.activeBaselineBytes !== undefined;
  const curves = computeDeviceCurveStats(
    empty,
    activeSigns,
    anchored
      ? trace!.activeBaselineBytes! + curveDelta(empty, activeSigns)
      : finalState.activeBytes,
    reservedSigns,
    finalState.reservedBytes,
  );
  const { active, actionCounts } = curves;
  const recordedReserved = trace?.recordedReservedBytes ?? null;
  const reserved =
    recordedReserved === null ? curves.reserved : recordedCurveStats(recordedReserved);
  refuseBeyondAnyDevice(named, 'active', active);
  refuseBeyondAnyDevice(named, 'reserved', reserved);
  for (const [curve, stats] of [
    ['active', active],
    ['reserved', reserved],
  ] as const) {
    // An anchored curve that would go below zero was said by the decoder, in its words.
    if (stats.clampedByBytes > 0 && !anchored) {
      warnings.push(
        `${named}: the trace does not match the final state (the ${curve} curve would go ` +
          `${formatBytes(stats.clampedByBytes)} below zero); it was raised to start at ${formatBytes(stats.baselineBytes)}`,
      );
    }
  }
  const match = trace === null ? null : matchAllocations(trace, freeing);
  if (match !== null && match.unmatchedFreeRows.length > 0) {
    warnings.push(
      `${named}: the trace starts mid-run: ${countOf(match.unmatchedFreeRows.length, 'free')} ${nounFor(match.unmatchedFreeRows.length, 'has', 'have')} no alloc in the trace ` +
        `(the ring buffer wrapped, or recording started late)`,
    );
  }
  if (anchored && match !== null) {
    const open = allocationsOpenAtEnd(empty, match.endRowOfAlloc);
    if (open.count > 0) {
      warnings.push(
        `${named}: ${countOf(open.count, 'allocation')} (${formatBytes(open.bytes)}) ${nounFor(open.count, 'is', 'are')} never freed in the trace: still held when recording stopped, or freed after it`,
      );
    }
  }
  if (match !== null && match.doubleAllocCount > 0) {
    warnings.push(
      `${named}: ${countOf(match.doubleAllocCount, 'alloc')} ${nounFor(match.doubleAllocCount, 'reuses', 'reuse')} an address that was never freed`,
    );
  }
  if (trace !== null && match !== null) {
    // Inconsistencies that the figures survive (curve and state stay >= 0) but that make them
    // disagree with each other: said once per device, before any document is built.
    const freedLive = liveBlocksFreedInTrace(model, trace, finalState, freeing, match);
    if (freedLive > 0) {
      const why =
        freeing.primary === 'free_requested'
          ? '; without free_completed entries a free_requested ends an allocation even when its block stays pending'
          : '';
      warnings.push(
        `${named}: ${countOf(freedLive, 'block')} live at the end ${nounFor(freedLive, 'was', 'were')} ` +
          `freed in the trace and not allocated again (the trace and the final segments ` +
          `disagree${why}); counted as allocated since before the trace, beside the allocation ` +
          `the trace freed`,
      );
    }
    const resized = freesOfAnotherSize(trace, match);
    if (resized > 0) {
      warnings.push(
        `${named}: ${countOf(resized, 'free')} of the trace ${nounFor(resized, 'names', 'name')} ` +
          `another size than ${nounFor(resized, 'its', 'their')} alloc; the active curve follows ` +
          `the frees, the allocator state the allocs`,
      );
    }
  }
  const ooms: OomEvent[] = [];
  if (trace !== null && actionCounts[ActionCode.oom]! > 0) {
    for (let i = 0; i < trace.length; i++) {
      if (trace.action[i] !== ActionCode.oom) continue;
      ooms.push({
        eventIndex: i,
        requestedBytes: trace.sizeBytes[i]!,
        deviceFreeBytes: trace.deviceFreeBytes.get(i) ?? null,
        streamId: trace.streamId[i]!,
      });
    }
  }
  return {
    device,
    trace,
    finalState,
    actionCounts,
    freeing,
    activeSigns,
    reservedSigns,
    active,
    reserved,
    match,
    ooms,
    segmentHistory: buildSegmentHistory(model, { device, trace, finalState }, warnings),
  };
}

/**
 * Each size is at most 1 PiB (raw-schema.ts MAX_BYTE_COUNT), but a curve sums them: past 2^53
 * bytes (8 PiB) its figures are no longer exact in a double, and no device holds that much (fuzz
 * campaign seed 20261137, case 76408: twenty frees of 1 PiB with no alloc before them put the
 * active curve at 14 PiB before the trace). Refused as a file of no known shape, in its words.
 */
function refuseBeyondAnyDevice(named: string, curve: string, stats: CurveStats): void {
  if (stats.peakBytes <= Number.MAX_SAFE_INTEGER) return;
  const where = stats.peakEventIndex < 0 ? ' before its first entry' : '';
  throw new SnapshotFormatError(
    `not a memory snapshot of a known shape: ${named}: the trace puts the ${curve} curve at ` +
      `${formatBytes(stats.peakBytes)}${where}, past 2^53 bytes (8 PiB), more than any device holds`,
  );
}

/**
 * Live blocks of the final state whose address the trace frees last (no alloc after the free):
 * the trace says the address is free at the end, the file says it is held. Such a block becomes
 * an allocation from before the trace that overlaps the trace's own allocation at that address
 * (the allocator state keeps the later one, see allocator-state.ts). One pass over the trace,
 * and only when some live block is not left open by the trace.
 */
function liveBlocksFreedInTrace(
  model: SnapshotModel,
  trace: DeviceTrace,
  finalState: FinalState,
  freeing: FreeingActions,
  match: AllocationMatch,
): number {
  const { segments, blocks } = model;
  const candidates = new AddressMap(64);
  for (const s of finalState.segmentIndexes) {
    for (let b = segments.blockOffsets[s]!; b < segments.blockOffsets[s + 1]!; b++) {
      if (blocks.state[b] === BlockStateCode.inactive) continue;
      const address = blocks.address[b]!;
      if (match.openAtEnd.get(address) < 0) candidates.set(address, 0);
    }
  }
  if (candidates.size === 0) return 0;
  const { action, addr, length } = trace;
  const isFreeing = freeing.isFreeing;
  let found = 0;
  for (let row = 0; row < length; row++) {
    if (isFreeing[action[row]!] !== 1) continue;
    // Each address is counted once: marked 1 when first seen freed.
    if (candidates.get(addr[row]!) === 0) {
      candidates.set(addr[row]!, 1);
      found++;
    }
  }
  return found;
}

/** Allocations ended by a free whose size is not the alloc's (never in real files). */
function freesOfAnotherSize(trace: DeviceTrace, match: AllocationMatch): number {
  const { action, sizeBytes, length } = trace;
  const { endRowOfAlloc } = match;
  let count = 0;
  for (let row = 0; row < length; row++) {
    const end = endRowOfAlloc[row]!;
    // Not an alloc, alive at the end, or ended by a second alloc at its address: no free.
    if (end < 0 || action[end] === ActionCode.alloc) continue;
    if (sizeBytes[end] !== sizeBytes[row]) count++;
  }
  return count;
}

/** Σ sign × size over the trace: how far a curve moves from its first value to its last. */
function curveDelta(trace: DeviceTrace, signs: Int8Array): number {
  let sum = 0;
  for (let i = 0; i < trace.length; i++) sum += signs[trace.action[i]!]! * trace.sizeBytes[i]!;
  return sum;
}

/** The figures of a curve the file records after each entry (its first value as the baseline). */
function recordedCurveStats(values: Float64Array): CurveStats {
  const baselineBytes = values.length > 0 ? values[0]! : 0;
  let peakBytes = baselineBytes;
  let peakEventIndex = -1;
  for (let i = 0; i < values.length; i++) {
    if (values[i]! > peakBytes) {
      peakBytes = values[i]!;
      peakEventIndex = i;
    }
  }
  return {
    finalBytes: values.length > 0 ? values[values.length - 1]! : 0,
    baselineBytes,
    peakBytes,
    peakEventIndex,
    clampedByBytes: 0,
  };
}

/** Allocations of the trace that no entry ends: their count and bytes. */
function allocationsOpenAtEnd(
  trace: DeviceTrace,
  endRowOfAlloc: Int32Array,
): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (let row = 0; row < trace.length; row++) {
    if (endRowOfAlloc[row] !== ALIVE_AT_END) continue;
    count++;
    bytes += trace.sizeBytes[row]!;
  }
  return { count, bytes };
}

/** A trace with no entries: devices that have segments but no events. */
export function emptyTrace(device: number): DeviceTrace {
  return {
    device,
    length: 0,
    action: new Uint8Array(0),
    addr: new Float64Array(0),
    sizeBytes: new Float64Array(0),
    streamId: new Uint32Array(0),
    timeUs: new Float64Array(0),
    stackId: new Int32Array(0),
    deviceFreeBytes: new Map(),
    compileContextId: null,
    userMetadataId: null,
  };
}
