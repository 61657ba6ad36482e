// What the UI keeps of an open snapshot: per device the curves after every event, the times, the
// allocation table, the summary figures; plus frames and stacks. Computed once in the worker that
// decoded the file; all bulk data is typed arrays, so it crosses to the page as transferables.

import { buildAllocationTable, type AllocationTable } from '../analysis/allocation-table';
import { materializeCurves } from '../analysis/curve-stats';
import { analyzeSnapshot, emptyTrace, type OomEvent } from '../analysis/snapshot-analysis';
import { buildSegmentHistory, type SegmentHistory } from '../state/segment-history';
import type { ExternalAnnotation, FrameTable, SnapshotModel, StackTable } from '../snapshot/model';
import { buildSummaryDocument, type DeviceSummary } from '../report/summary-report';

export interface DeviceView {
  device: number;
  traceLength: number;
  /** time_us of each event; null when the file records no times. */
  timeUs: Float64Array | null;
  /** Action code of each event (SnapshotView.actionNames). */
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
  /** The figures of `allocscope summary --json` for this device (top 10 allocations at the peak). */
  summary: DeviceSummary;
}

export interface SnapshotView {
  fileName: string;
  fileBytes: number;
  pickleProtocol: number;
  warnings: string[];
  actionNames: string[];
  frames: FrameTable;
  stacks: StackTable;
  streams: number[];
  /** Pool ids as written ("0,0" is the default pool, always index 0). */
  pools: string[];
  annotations: ExternalAnnotation[];
  allocatorSettings: Record<string, unknown> | null;
  devices: DeviceView[];
}

export interface SnapshotFileFacts {
  fileName: string;
  fileBytes: number;
}

export function buildSnapshotView(model: SnapshotModel, file: SnapshotFileFacts): SnapshotView {
  const analysis = analyzeSnapshot(model);
  const summary = buildSummaryDocument(model, analysis, { ...file, top: 10 });
  const devices = analysis.devices.map((device, index): DeviceView => {
    const trace = device.trace;
    const length = trace?.length ?? 0;
    const hasTimes = trace !== null && length > 0 && !Number.isNaN(trace.timeUs[0]!);
    const events = trace ?? emptyTrace(device.device);
    const curves = materializeCurves(
      events,
      device.activeSigns,
      device.active,
      device.reservedSigns,
      device.reserved,
    );
    return {
      device: device.device,
      traceLength: length,
      // Copies: the model's columns are views into one large buffer shared by all devices.
      timeUs: hasTimes ? trace.timeUs.slice() : null,
      action: events.action.slice(),
      activeBytes: curves.active,
      reservedBytes: curves.reserved,
      allocations: buildAllocationTable(model, device),
      segmentHistory: buildSegmentHistory(model, device, summary.warnings),
      ooms: device.ooms,
      summary: summary.devices[index]!,
    };
  });
  return {
    fileName: file.fileName,
    fileBytes: file.fileBytes,
    pickleProtocol: model.pickleProtocol,
    warnings: summary.warnings,
    actionNames: model.actionNames,
    frames: model.frames,
    stacks: model.stacks,
    streams: model.streams,
    pools: model.pools,
    annotations: model.externalAnnotations,
    allocatorSettings: model.allocatorSettings,
    devices,
  };
}

/** The buffers to transfer (not copy) when posting a view to another thread. */
export function transferablesOf(view: SnapshotView): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  // Every typed-array column of these tables, so a column added later is never left behind.
  const addColumnsOf = (table: object): void => {
    for (const value of Object.values(table)) {
      if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer)
        buffers.add(value.buffer);
    }
  };
  addColumnsOf(view.stacks);
  for (const device of view.devices) {
    addColumnsOf(device);
    addColumnsOf(device.allocations);
    addColumnsOf(device.segmentHistory);
  }
  return [...buffers];
}
