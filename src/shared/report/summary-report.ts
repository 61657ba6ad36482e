// The `allocscope.summary/1` document (docs/summary-json.md): what `allocscope summary --json`
// prints and what the app exports. Built from the model and its analysis; validated by its schema.

import { z } from 'zod';
import { liveAllocationsAt } from '../analysis/live-allocations';
import type { DeviceAnalysis, SnapshotAnalysis } from '../analysis/snapshot-analysis';
import type { SnapshotModel } from '../snapshot/model';
import { framesOfStack, frameSchema } from './frames';

export const SUMMARY_SCHEMA_ID = 'allocscope.summary/1';

const bytes = z.number().int().nonnegative();

export const summaryAllocationSchema = z.object({
  address: bytes,
  bytes,
  alloc_event_index: z.number().int().nonnegative().nullable(),
  frames: z.array(frameSchema),
});

export const deviceSummarySchema = z.object({
  device: z.number().int().nonnegative(),
  trace_entries: z.number().int().nonnegative(),
  actions: z.record(z.string(), z.number().int().positive()),
  segments: z.number().int().nonnegative(),
  blocks: z.number().int().nonnegative(),
  reserved_bytes: z.object({ final: bytes, peak: bytes, baseline: bytes }),
  active_bytes: z.object({
    final: bytes,
    peak: bytes,
    baseline: bytes,
    peak_event_index: z.number().int().min(-1),
  }),
  allocated_bytes: z.object({ final: bytes }),
  unmatched_frees: z.number().int().nonnegative(),
  oom: z.array(
    z.object({
      event_index: z.number().int().nonnegative(),
      requested_bytes: bytes,
      device_free_bytes: bytes.nullable(),
    }),
  ),
  largest_allocations_at_peak: z.array(summaryAllocationSchema),
});

export const summaryDocumentSchema = z.object({
  schema: z.literal(SUMMARY_SCHEMA_ID),
  file: z.string(),
  bytes,
  pickle_protocol: z.number().int().min(2).max(5),
  warnings: z.array(z.string()),
  devices: z.array(deviceSummarySchema),
});

export type SummaryDocument = z.infer<typeof summaryDocumentSchema>;
export type DeviceSummary = z.infer<typeof deviceSummarySchema>;

export interface SummaryOptions {
  fileName: string;
  fileBytes: number;
  /** How many of the largest live allocations at the peak to list. */
  top: number;
}

export function buildSummaryDocument(
  model: SnapshotModel,
  analysis: SnapshotAnalysis,
  options: SummaryOptions,
): SummaryDocument {
  return {
    schema: SUMMARY_SCHEMA_ID,
    file: options.fileName,
    bytes: options.fileBytes,
    pickle_protocol: model.pickleProtocol,
    warnings: analysis.warnings,
    devices: analysis.devices.map((device) => deviceSummary(model, device, options.top)),
  };
}

function deviceSummary(model: SnapshotModel, analysis: DeviceAnalysis, top: number): DeviceSummary {
  const { finalState, active, reserved, trace, match } = analysis;
  const actions: Record<string, number> = {};
  const names = model.actionNames
    .map((name, code) => ({ name, count: analysis.actionCounts[code]! }))
    .filter((entry) => entry.count > 0)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { name, count } of names) actions[name] = count;
  const live = liveAllocationsAt(model, trace, match, finalState, active.peakEventIndex).slice(
    0,
    top,
  );
  return {
    device: analysis.device,
    trace_entries: trace?.length ?? 0,
    actions,
    segments: finalState.segmentCount,
    blocks: finalState.blockCount,
    reserved_bytes: {
      final: reserved.finalBytes,
      peak: reserved.peakBytes,
      baseline: reserved.baselineBytes,
    },
    active_bytes: {
      final: active.finalBytes,
      peak: active.peakBytes,
      baseline: active.baselineBytes,
      peak_event_index: active.peakEventIndex,
    },
    allocated_bytes: { final: finalState.allocatedBytes },
    unmatched_frees: match?.unmatchedFreeRows.length ?? 0,
    oom: analysis.ooms.map((oom) => ({
      event_index: oom.eventIndex,
      requested_bytes: oom.requestedBytes,
      device_free_bytes: oom.deviceFreeBytes,
    })),
    largest_allocations_at_peak: live.map((allocation) => ({
      address: allocation.address,
      bytes: allocation.bytes,
      alloc_event_index: allocation.allocEventIndex,
      frames: framesOfStack(model, allocation.stackId),
    })),
  };
}
