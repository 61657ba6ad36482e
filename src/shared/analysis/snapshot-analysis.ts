// Everything the summary, the CLI and the views need per device, computed once after decoding.

import { formatBytes } from '../units';
import { ActionCode, type DeviceTrace, type SnapshotModel } from '../snapshot/model';
import {
  activeDeltaSigns,
  freeingActionsOf,
  reservedDeltaSigns,
  type FreeingActions,
} from './action-semantics';
import { matchAllocations, type AllocationMatch } from './allocation-matching';
import { computeDeviceCurveStats, type CurveStats } from './curve-stats';
import { emptyFinalState, finalStateByDevice, type FinalState } from './final-state';

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
}

export interface SnapshotAnalysis {
  devices: DeviceAnalysis[];
  warnings: string[];
}

export function analyzeSnapshot(model: SnapshotModel): SnapshotAnalysis {
  const finalStates = finalStateByDevice(model);
  const tracesByDevice = new Map(model.traces.map((trace) => [trace.device, trace]));
  const deviceIds = [...new Set([...finalStates.keys(), ...tracesByDevice.keys()])].sort(
    (a, b) => a - b,
  );
  const warnings = [...model.warnings];
  const devices = deviceIds.map((device) =>
    analyzeDevice(
      tracesByDevice.get(device) ?? null,
      finalStates.get(device) ?? emptyFinalState(device),
      warnings,
    ),
  );
  return { devices, warnings };
}

function analyzeDevice(
  trace: DeviceTrace | null,
  finalState: FinalState,
  warnings: string[],
): DeviceAnalysis {
  const device = finalState.device;
  const empty = trace ?? emptyTrace(device);
  const freeing = freeingActionsOf(empty);
  const activeSigns = activeDeltaSigns(freeing);
  const reservedSigns = reservedDeltaSigns();
  const { active, reserved, actionCounts } = computeDeviceCurveStats(
    empty,
    activeSigns,
    finalState.activeBytes,
    reservedSigns,
    finalState.reservedBytes,
  );
  for (const [curve, stats] of [
    ['active', active],
    ['reserved', reserved],
  ] as const) {
    if (stats.clampedByBytes > 0) {
      warnings.push(
        `device ${device}: the trace does not match the final state (the ${curve} curve would go ` +
          `${formatBytes(stats.clampedByBytes)} below zero); it was raised to start at ${formatBytes(stats.baselineBytes)}`,
      );
    }
  }
  const match = trace === null ? null : matchAllocations(trace, freeing);
  if (match !== null && match.unmatchedFreeRows.length > 0) {
    warnings.push(
      `device ${device}: the trace starts mid-run: ${match.unmatchedFreeRows.length} frees have no alloc in the trace ` +
        `(the ring buffer wrapped, or recording started late)`,
    );
  }
  if (match !== null && match.doubleAllocCount > 0) {
    warnings.push(
      `device ${device}: ${match.doubleAllocCount} allocs reuse an address that was never freed`,
    );
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
  };
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
