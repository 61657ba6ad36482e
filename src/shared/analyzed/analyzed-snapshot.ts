// The analyzed snapshot: the one in-memory model of an open file that the app, the exports and the
// CLI read. Per device the curves after every event, the times, the allocation table, the segment
// history, the headline figures; plus frames and stacks. Computed once in the worker that decoded
// the file; all bulk data is typed arrays, so it crosses to the page as transferables, where it is
// adopted with a fresh cache for the data derived from it later.

import {
  allocationDetailColumnsOf,
  type AllocationDetailColumns,
} from '../analysis/allocation-detail-columns';
import { buildAllocationTable, type AllocationTable } from '../analysis/allocation-table';
import { adoptFrameLabelTables, type FrameLabelTables } from '../analysis/label-tables';
import { materializeCurves } from '../analysis/curve-stats';
import type { SegmentHistory } from '../analysis/segment-history';
import { analyzeSnapshot, emptyTrace, type OomEvent } from '../analysis/snapshot-analysis';
import type {
  ExternalAnnotation,
  FrameTable,
  SnapshotModel,
  SnapshotSource,
  StackTable,
  StringListTable,
} from '../snapshot/model';
import { DerivedCache, type HasDerivedCache, type PostedDerived } from './derived-cache';
import { rememberRelativeTimes, rememberTraceTimeSpan, traceTimeSpanUs } from './device-times';
import {
  DEFAULT_TOP_ALLOCATIONS,
  deviceFiguresOf,
  type DeviceFigures,
  type SnapshotFigures,
} from './device-figures';

/** One device of an analyzed snapshot as it crosses threads: plain data and typed arrays. */
export interface AnalyzedDeviceData {
  device: number;
  traceLength: number;
  /** time_us of each event; null when the times are not usable (device-times.ts). */
  timeUs: Float64Array | null;
  /**
   * Microseconds from the first event to the latest (device-times.ts traceTimeSpanUs), measured
   * while the snapshot was built; absent in data built before it was recorded.
   */
  timeSpanUs?: number | null;
  /**
   * The times since the first event (device-times.ts relativeTimes), where they were built with
   * the snapshot: the page's decode worker builds those of the device it opens on.
   */
  relativeTimesPosted?: Float64Array | null;
  /** Action code of each event (AnalyzedSnapshot.actionNames). */
  action: Uint8Array;
  /** Active (allocated) bytes after each event. */
  activeBytes: Float64Array;
  /** Reserved bytes after each event. */
  reservedBytes: Float64Array;
  allocations: AllocationTable;
  /** Every segment extent and when it existed (walked back from the final segments). */
  segmentHistory: SegmentHistory;
  /** The trace's `oom` entries. */
  ooms: OomEvent[];
  /** The headline figures (the summary's), with the 10 largest allocations at the active peak. */
  figures: DeviceFigures;
  /**
   * The newest per-allocation fields (user_metadata, compile_context, forward_frames, pool_id,
   * internal_metadata, category, annotate entries); read them with allocationDetails().
   */
  details?: AllocationDetailColumns;
  /**
   * Values derived from this device where the file was decoded (the page's decode worker builds
   * those of its first screen), which the adopted device's cache answers from.
   */
  derivedPosted?: PostedDerived;
}

export interface AnalyzedSnapshotData {
  /** Absent: a memory snapshot; 'profiler-trace': no segments, blocks or allocator settings. */
  source?: SnapshotSource;
  fileName: string;
  fileBytes: number;
  /** Null for the JSON form; `snapshotFormName` says either. */
  pickleProtocol: number | null;
  /** Final before any document is built: decode, analysis and segment history all said theirs. */
  warnings: readonly string[];
  actionNames: string[];
  frames: FrameTable;
  stacks: StackTable;
  streams: number[];
  /** Pool ids as written ("0,0" is the default pool, always index 0). */
  pools: string[];
  annotations: ExternalAnnotation[];
  allocatorSettings: Record<string, unknown> | null;
  devices: AnalyzedDeviceData[];
  /** Strings the detail columns name (SnapshotModel.strings). */
  strings?: string[];
  /** forward_frames lists (SnapshotModel.forwardFrames). */
  forwardFrames?: StringListTable;
  /** Every stack's label, computed where the file was decoded (the app's worker); else on use. */
  labels?: FrameLabelTables;
}

/** A device of the snapshot as the app, exports and CLI read it, with its derived data. */
export interface AnalyzedDevice extends AnalyzedDeviceData, HasDerivedCache {}

/** The in-memory model of one open snapshot: what every view, export and CLI command reads. */
export interface AnalyzedSnapshot extends Omit<AnalyzedSnapshotData, 'devices'>, HasDerivedCache {
  devices: AnalyzedDevice[];
}

export interface SnapshotFileFacts {
  fileName: string;
  fileBytes: number;
}

/** The analyzed snapshot of a decoded model, ready to use on this thread. */
export function buildAnalyzedSnapshot(
  model: SnapshotModel,
  file: SnapshotFileFacts,
): AnalyzedSnapshot {
  return adoptAnalyzedSnapshot(buildAnalyzedSnapshotData(model, file));
}

/**
 * The analyzed snapshot as plain data, to post to another thread (with transferablesOf); the
 * receiver adopts it. Computed once, in the worker that decoded the file.
 */
export function buildAnalyzedSnapshotData(
  model: SnapshotModel,
  file: SnapshotFileFacts,
): AnalyzedSnapshotData {
  const analysis = analyzeSnapshot(model);
  const devices = analysis.devices.map((device): AnalyzedDeviceData => {
    const trace = device.trace;
    const length = trace?.length ?? 0;
    // The one rule for usable times (device-times.ts): otherwise the device has none.
    const timeSpanUs = trace === null ? null : traceTimeSpanUs(trace.timeUs, length);
    const hasTimes = timeSpanUs !== null;
    const events = trace ?? emptyTrace(device.device);
    const curves = materializeCurves(
      events,
      device.activeSigns,
      device.active,
      device.reservedSigns,
      device.reserved,
    );
    const allocations = buildAllocationTable(model, device);
    return {
      device: device.device,
      traceLength: length,
      // Copies: the model's columns are views into one large buffer shared by all devices.
      timeUs: hasTimes ? trace!.timeUs.slice() : null,
      timeSpanUs,
      action: events.action.slice(),
      activeBytes: curves.active,
      // A profiler trace records its reserved bytes at each event; a snapshot's are summed.
      reservedBytes: trace?.recordedReservedBytes?.slice() ?? curves.reserved,
      allocations,
      segmentHistory: device.segmentHistory,
      ooms: device.ooms,
      figures: deviceFiguresOf(model, device, DEFAULT_TOP_ALLOCATIONS),
      details: allocationDetailColumnsOf(model, trace, device.finalState, allocations),
    };
  });
  return {
    ...(model.source === undefined ? {} : { source: model.source }),
    fileName: file.fileName,
    fileBytes: file.fileBytes,
    pickleProtocol: model.pickleProtocol,
    warnings: analysis.warnings,
    actionNames: model.actionNames,
    frames: model.frames,
    stacks: model.stacks,
    streams: model.streams,
    pools: model.pools,
    annotations: model.externalAnnotations,
    allocatorSettings: model.allocatorSettings,
    devices,
    strings: model.strings,
    ...(model.forwardFrames === undefined ? {} : { forwardFrames: model.forwardFrames }),
  };
}

/** Takes posted (or freshly built) data as this thread's analyzed snapshot. */
export function adoptAnalyzedSnapshot(data: AnalyzedSnapshotData): AnalyzedSnapshot {
  if (data.labels !== undefined) adoptFrameLabelTables(data, data.labels);
  return {
    ...data,
    derived: new DerivedCache(),
    devices: data.devices.map((device) => adoptAnalyzedDevice(device)),
  };
}

export function adoptAnalyzedDevice(data: AnalyzedDeviceData): AnalyzedDevice {
  // The span the worker measured: the timeline's extent and axis need not pass over 4M times again.
  if (data.timeUs !== null && data.timeSpanUs !== undefined)
    rememberTraceTimeSpan(data.timeUs, data.traceLength, data.timeSpanUs);
  const { derivedPosted = [], relativeTimesPosted, ...columns } = data;
  if (data.timeUs !== null && relativeTimesPosted !== undefined)
    rememberRelativeTimes(data.timeUs, data.traceLength, relativeTimesPosted);
  // The cache's owner is the device itself: a posted value may need it to be whole again.
  return Object.assign(columns, { derived: new DerivedCache(derivedPosted, columns) });
}

/** The summary figures of the whole snapshot, as the summary document and text read them. */
export function snapshotFiguresOfAnalyzed(snapshot: AnalyzedSnapshotData): SnapshotFigures {
  return {
    ...(snapshot.source === undefined ? {} : { source: snapshot.source }),
    fileName: snapshot.fileName,
    fileBytes: snapshot.fileBytes,
    pickleProtocol: snapshot.pickleProtocol,
    warnings: snapshot.warnings,
    frames: snapshot.frames,
    stacks: snapshot.stacks,
    devices: snapshot.devices.map((device) => device.figures),
  };
}

/** The buffers to transfer (not copy) when posting a view to another thread. */
export function transferablesOf(snapshot: AnalyzedSnapshotData): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  // Every typed-array column of these tables, so a column added later is never left behind.
  const addColumnsOf = (table: object): void => {
    for (const value of Object.values(table)) {
      if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer)
        buffers.add(value.buffer);
    }
  };
  addColumnsOf(snapshot.stacks);
  if (snapshot.forwardFrames !== undefined) addColumnsOf(snapshot.forwardFrames);
  if (snapshot.labels !== undefined) addColumnsOf(snapshot.labels);
  for (const device of snapshot.devices) {
    addColumnsOf(device);
    addColumnsOf(device.allocations);
    addColumnsOf(device.segmentHistory);
    if (device.details !== undefined) addColumnsOf(device.details);
    for (const { value } of device.derivedPosted ?? [])
      if (typeof value === 'object' && value !== null) addColumnsOf(value);
  }
  return [...buffers];
}
