// The `allocscope.summary/1` document (docs/summary-json.md): what `allocscope summary --json`
// prints and what the app exports. Written from the figures of the analyzed snapshot (never read
// back); validated by its schema.

import { z } from 'zod';
import type { SnapshotAnalysis } from '../analysis/snapshot-analysis';
import {
  snapshotFiguresOf,
  type DeviceFigures,
  type FigureOptions,
  type SnapshotFigures,
} from '../analyzed/device-figures';
import type { SnapshotModel } from '../snapshot/model';
import type { StackSource } from '../snapshot/stack-source';
import { framesOfStack, frameSchema, stackLabelSchema, topFrameOfStack } from './frames';

export const SUMMARY_SCHEMA_ID = 'allocscope.summary/1';

const bytes = z.number().int().nonnegative();

export const summaryAllocationSchema = z.object({
  address: bytes,
  bytes,
  alloc_event_index: z.number().int().nonnegative().nullable(),
  top_frame: stackLabelSchema,
  frames: z.array(frameSchema),
});

export const deviceSummarySchema = z.object({
  /** The CUDA ordinal; -1 (HOST_DEVICE) is pinned host memory, -2 (CPU_DEVICE) a profiler trace's CPU memory. */
  device: z.number().int().min(-2),
  trace_entries: z.number().int().nonnegative(),
  actions: z.record(z.string(), z.number().int().positive()),
  segments: z.number().int().nonnegative(),
  blocks: z.number().int().nonnegative(),
  /** null: the file records no reserved bytes for the device (a profiler trace of CPU memory). */
  reserved_bytes: z.object({ final: bytes, peak: bytes, baseline: bytes }).nullable(),
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
  /** A memory timeline's, or a trace's given one: bytes alive at the active peak by PyTorch's category. */
  categories_at_peak: z
    .array(z.object({ category: z.string(), bytes, allocations: z.number().int().nonnegative() }))
    .optional(),
});

export const summaryDocumentSchema = z.object({
  schema: z.literal(SUMMARY_SCHEMA_ID),
  file: z.string(),
  bytes,
  /** 2..5 from the PROTO opcode; null for the JSON form (no pickle). */
  pickle_protocol: z.number().int().min(2).max(5).nullable(),
  /** Only for a PyTorch profiler trace (absent for a memory snapshot): it records no segments. */
  source: z.enum(['profiler_trace', 'memory_timeline']).optional(),
  warnings: z.array(z.string()),
  devices: z.array(deviceSummarySchema),
});

export type SummaryDocument = z.infer<typeof summaryDocumentSchema>;
export type DeviceSummary = z.infer<typeof deviceSummarySchema>;

/** The `allocscope.summary/1` document straight from a decoded model (the CLI's summary). */
export function buildSummaryDocument(
  model: SnapshotModel,
  analysis: SnapshotAnalysis,
  options: FigureOptions,
): SummaryDocument {
  return summaryDocumentOf(snapshotFiguresOf(model, analysis, options));
}

/** The `allocscope.summary/1` document of figures already computed (the app's, or the CLI's). */
export function summaryDocumentOf(figures: SnapshotFigures): SummaryDocument {
  return {
    schema: SUMMARY_SCHEMA_ID,
    file: figures.fileName,
    bytes: figures.fileBytes,
    pickle_protocol: figures.pickleProtocol,
    ...(figures.source === 'profiler-trace' ? { source: 'profiler_trace' as const } : {}),
    ...(figures.source === 'memory-timeline' ? { source: 'memory_timeline' as const } : {}),
    warnings: [...figures.warnings],
    devices: figures.devices.map((device) => deviceSummaryOf(figures, device)),
  };
}

function deviceSummaryOf(source: StackSource, figures: DeviceFigures): DeviceSummary {
  const actions: Record<string, number> = {};
  const byName = [...figures.actionCounts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, count] of byName) actions[name] = count;
  return {
    device: figures.device,
    trace_entries: figures.traceEntries,
    actions,
    segments: figures.segments,
    blocks: figures.blocks,
    reserved_bytes: figures.reservedRecorded
      ? {
          final: figures.reserved.finalBytes,
          peak: figures.reserved.peakBytes,
          baseline: figures.reserved.baselineBytes,
        }
      : null,
    active_bytes: {
      final: figures.active.finalBytes,
      peak: figures.active.peakBytes,
      baseline: figures.active.baselineBytes,
      peak_event_index: figures.active.peakEventIndex,
    },
    allocated_bytes: { final: figures.allocatedFinalBytes },
    unmatched_frees: figures.unmatchedFrees,
    oom: figures.ooms.map((oom) => ({
      event_index: oom.eventIndex,
      requested_bytes: oom.requestedBytes,
      device_free_bytes: oom.deviceFreeBytes,
    })),
    largest_allocations_at_peak: figures.largestAtPeak.map((allocation) => ({
      address: allocation.address,
      bytes: allocation.bytes,
      alloc_event_index: allocation.allocEventIndex,
      top_frame: topFrameOfStack(source, allocation.stackId),
      frames: framesOfStack(source, allocation.stackId),
    })),
    ...(figures.categoriesAtPeak === undefined
      ? {}
      : {
          categories_at_peak: figures.categoriesAtPeak.map((row) => ({
            category: row.category,
            bytes: row.bytes,
            allocations: row.allocations,
          })),
        }),
  };
}
