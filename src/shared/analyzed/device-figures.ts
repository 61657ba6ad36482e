// The headline figures of one device, camelCase and typed: what the summary table, the status bar,
// the charts' baselines and the default moment read. Built once from the analysis; the JSON
// documents (report/summary-report.ts) are written from these, never read back.

import { liveAllocationsAt } from '../analysis/live-allocations';
import type { DeviceAnalysis, OomEvent, SnapshotAnalysis } from '../analysis/snapshot-analysis';
import { categoriesAtPeak, type CategoryAtPeak } from './categories-at-peak';
import type { FrameTable, SnapshotModel, SnapshotSource, StackTable } from '../snapshot/model';

/** How many of the largest allocations alive at the active peak the app and exports list. */
export const DEFAULT_TOP_ALLOCATIONS = 10;

export interface CurveFigures {
  finalBytes: number;
  peakBytes: number;
  /** The value before the first trace entry. */
  baselineBytes: number;
}

export interface PeakAllocation {
  address: number;
  bytes: number;
  /** The trace entry that allocated it; null when it was allocated before the trace. */
  allocEventIndex: number | null;
  stackId: number;
}

export interface DeviceFigures {
  device: number;
  traceEntries: number;
  /** Count per action that occurs, in the order of the action codes. */
  actionCounts: ReadonlyArray<readonly [name: string, count: number]>;
  segments: number;
  blocks: number;
  /** `memory_reserved`: bytes in segments. */
  reserved: CurveFigures;
  /**
   * false when the file records no reserved bytes for the device (a profiler trace of CPU memory:
   * Total Reserved is 0 at every event), so that no figure of 0 B reads as measured; the
   * `reserved` figures are then 0.
   */
  reservedRecorded: boolean;
  /**
   * Requested bytes of the live allocations (pending frees included: PyTorch's `requested_bytes`,
   * not `memory_allocated`); the peak is after `peakEventIndex` (-1: before the trace).
   */
  active: CurveFigures & { peakEventIndex: number };
  /** Rounded bytes of the blocks allocated at the end, without those pending free: `memory_allocated()`. */
  allocatedFinalBytes: number;
  unmatchedFrees: number;
  ooms: readonly OomEvent[];
  largestAtPeak: PeakAllocation[];
  /**
   * Bytes alive at the active peak by the file's own category per allocation (a memory
   * timeline's, or a trace's given one beside it: ./categories-at-peak.ts); absent when none.
   */
  categoriesAtPeak?: CategoryAtPeak[];
}

/** The figures of a whole file: enough for the summary and its text, without the columns. */
export interface SnapshotFigures {
  /** Absent: a memory snapshot. */
  source?: SnapshotSource;
  fileName: string;
  fileBytes: number;
  /** Null for the JSON form; `snapshotFormName` says either. */
  pickleProtocol: number | null;
  /** Final: every warning the decode and the analysis have to say, before any document. */
  warnings: readonly string[];
  frames: FrameTable;
  stacks: StackTable;
  devices: DeviceFigures[];
}

export interface FigureOptions {
  fileName: string;
  fileBytes: number;
  /** How many of the largest live allocations at the peak to list. */
  top: number;
}

export function snapshotFiguresOf(
  model: SnapshotModel,
  analysis: SnapshotAnalysis,
  options: FigureOptions,
): SnapshotFigures {
  return {
    ...(model.source === undefined ? {} : { source: model.source }),
    fileName: options.fileName,
    fileBytes: options.fileBytes,
    pickleProtocol: model.pickleProtocol,
    warnings: analysis.warnings,
    frames: model.frames,
    stacks: model.stacks,
    devices: analysis.devices.map((device) => deviceFiguresOf(model, device, options.top)),
  };
}

export function deviceFiguresOf(
  model: SnapshotModel,
  analysis: DeviceAnalysis,
  top: number,
): DeviceFigures {
  const { finalState, active, reserved, trace, match } = analysis;
  const actionCounts = model.actionNames
    .map((name, code) => [name, analysis.actionCounts[code]!] as const)
    .filter(([, count]) => count > 0);
  const live = liveAllocationsAt(model, trace, match, finalState, active.peakEventIndex);
  // A snapshot's own `category` field is the holders' to read (Who holds it by category).
  const byCategory =
    model.source === 'memory-timeline' || model.source === 'profiler-trace'
      ? categoriesAtPeak(trace, model.strings ?? [], live)
      : null;
  return {
    device: analysis.device,
    traceEntries: trace?.length ?? 0,
    actionCounts,
    segments: finalState.segmentCount,
    blocks: finalState.blockCount,
    reserved: {
      finalBytes: reserved.finalBytes,
      peakBytes: reserved.peakBytes,
      baselineBytes: reserved.baselineBytes,
    },
    // A snapshot's reserved bytes are its segments; a profiler trace's are its Total Reserved
    // when above 0; a memory timeline records none.
    reservedRecorded:
      model.source === undefined ||
      model.source === 'memory-snapshot' ||
      (trace?.recordedReservedBytes ?? null) !== null,
    active: {
      finalBytes: active.finalBytes,
      peakBytes: active.peakBytes,
      baselineBytes: active.baselineBytes,
      peakEventIndex: active.peakEventIndex,
    },
    // A profiler trace has no blocks: what it allocated at the end is its active curve's end
    // (PyTorch's Total Allocated), which it starts from.
    allocatedFinalBytes:
      trace?.activeBaselineBytes === undefined ? finalState.allocatedBytes : active.finalBytes,
    unmatchedFrees: match?.unmatchedFreeRows.length ?? 0,
    ooms: analysis.ooms,
    largestAtPeak: live.slice(0, top).map((allocation) => ({
      address: allocation.address,
      bytes: allocation.bytes,
      allocEventIndex: allocation.allocEventIndex,
      stackId: allocation.stackId,
    })),
    ...(byCategory === null ? {} : { categoriesAtPeak: byCategory }),
  };
}
