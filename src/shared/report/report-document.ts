// The `allocscope.report/1` document (docs/report-json.md): the summary of `allocscope summary
// --json`, extended per device with fragmentation figures (at the active peak, at a chosen
// moment, sampled over the trace) and the OOM explainer's findings. Built from the view alone,
// so the app (which holds only the view) and `allocscope report --json` write the same document.

import { CATEGORIES } from '../holders/categories';
import { z } from 'zod';
import { explainOoms, explainPeak } from '../oom/oom-explainer';
import type { OomExplanation } from '../oom/oom-explanation';
import {
  allocatorStateIndexOf,
  type AllocatorState,
  type AllocatorStateIndex,
} from '../state/allocator-state';
import { fragmentationSeries, sampleMoments } from '../state/fragmentation-series';
import {
  figuresByGroup,
  figuresOfState,
  smallHoleThreshold,
  type GroupFigures,
  type MemoryFigures,
} from '../state/memory-figures';
import {
  snapshotFiguresOfAnalyzed,
  type AnalyzedDevice,
  type AnalyzedSnapshot,
} from '../analyzed/analyzed-snapshot';
import { eventTimeUs } from '../analyzed/device-times';
import {
  NO_SEGMENTS_IN_TRACE,
  poolIdAt,
  SEGMENT_TYPE_NAMES,
  segmentTypeName,
} from '../format/words';
import { recordsSegments } from '../analyzed/records-segments';
import { framesOfStack, frameSchema } from './frames';
import { summaryDocumentOf, summaryDocumentSchema, type SummaryDocument } from './summary-report';

export const REPORT_SCHEMA = 'allocscope.report/1';
export const REPORT_GENERATOR = 'allocscope';
/** Evenly spaced moments of the fragmentation series (the peak, OOMs and the moment are added). */
export const SERIES_SAMPLES = 200;

const bytes = z.number().int().nonnegative();
const count = z.number().int().nonnegative();
/** "The state after event e"; -1 = before the first trace entry. */
const moment = z.number().int().min(-1);
const segmentTypeSchema = z.enum(SEGMENT_TYPE_NAMES);

export const memoryFiguresSchema = z.object({
  segmentCount: count,
  reservedBytes: bytes,
  activeBytes: bytes,
  blockBytes: bytes,
  /** Σ max(0, block size - requested): never negative, even for an inconsistent file. */
  internalWasteBytes: bytes,
  cachedFreeBytes: bytes,
  largestFreeBytes: bytes,
  freeBlockCount: count,
  smallFreeBytes: bytes,
  smallHoleThresholdBytes: bytes,
});

export const groupFiguresSchema = memoryFiguresSchema.extend({
  /** Pool id as written ("0,0" = the default pool). */
  pool: z.string(),
  /** Raw cudaStream_t value (0 = the default stream). */
  stream: z.number().int(),
  segmentType: segmentTypeSchema,
});

export const momentFiguresSchema = z.object({
  event: moment,
  timeUs: z.number().nullable(),
  totals: memoryFiguresSchema,
  groups: z.array(groupFiguresSchema),
});

export const fragmentationSeriesSchema = z.object({
  smallHoleThresholdBytes: bytes,
  moments: z.array(moment),
  timeUs: z.array(z.number().nullable()),
  reservedBytes: z.array(bytes),
  activeBytes: z.array(bytes),
  cachedFreeBytes: z.array(bytes),
  largestFreeBytes: z.array(bytes),
  smallFreeBytes: z.array(bytes),
  internalWasteBytes: z.array(bytes),
  freeBlockCount: z.array(count),
});

export const oomHolderSchema = z.object({
  /** The group's largest stack. */
  stackId: z.number().int(),
  topFrame: z.string().nullable(),
  bytes,
  count: z.number().int().positive(),
  /** The whole of the largest stack, innermost first. */
  frames: z.array(frameSchema),
  /** Every stack whose top user frame is this one, largest first. */
  stacks: z.array(
    z.object({
      stackId: z.number().int(),
      via: z.string().nullable(),
      bytes,
      count: z.number().int().positive(),
    }),
  ),
});

export const oomExplanationSchema = z.object({
  /** The CUDA ordinal; -1 (HOST_DEVICE) is pinned host memory, -2 (CPU_DEVICE) a profiler trace's CPU memory. */
  device: z.number().int().min(-2),
  event: moment,
  timeUs: z.number().nullable(),
  requestedBytes: bytes.nullable(),
  roundedRequestBytes: bytes.nullable(),
  deviceFreeBytes: bytes.nullable(),
  reservedBytes: bytes,
  activeBytes: bytes,
  cachedFreeBytes: bytes,
  largestFreeBytes: bytes,
  poolIndex: z.number().int().nonnegative(),
  pool: z.string(),
  stream: z.number().int(),
  segmentType: z.enum(['large', 'small']),
  poolCachedFreeBytes: bytes,
  poolLargestFreeBytes: bytes,
  expandableSegments: z.boolean(),
  holders: z.array(oomHolderSchema),
  categories: z.array(z.object({ category: z.enum(CATEGORIES), bytes })),
  verdict: z.enum(['fragmentation', 'out-of-memory', 'fits-in-cache', 'process-limit', 'what-if']),
  verdictText: z.string().min(1),
});

export const deviceReportSchema = z.object({
  /** The CUDA ordinal; -1 (HOST_DEVICE) is pinned host memory, -2 (CPU_DEVICE) a profiler trace's CPU memory. */
  device: z.number().int().min(-2),
  smallHoleThresholdBytes: bytes,
  /**
   * The allocator's figures: null for a PyTorch profiler trace, which records no segments
   * (`allocatorNotRecorded` says so), rather than figures of 0 B that read as measured.
   */
  atPeak: momentFiguresSchema.nullable(),
  atMoment: momentFiguresSchema.nullable(),
  fragmentationSeries: fragmentationSeriesSchema.nullable(),
  ooms: z.array(oomExplanationSchema),
  whatIf: oomExplanationSchema.nullable(),
  /** Only for a profiler trace: why the allocator's figures are null. */
  allocatorNotRecorded: z.string().optional(),
  /**
   * Only for a profiler trace (whose `whatIf` is null: it needs the allocator): the allocations
   * alive at the active peak by stack, largest first, as an explanation lists its holders.
   */
  holdersAtPeak: z.array(oomHolderSchema).optional(),
});

export const reportDocumentSchema = z.object({
  schema: z.literal(REPORT_SCHEMA),
  generator: z.string(),
  file: z.string(),
  summary: summaryDocumentSchema,
  devices: z.array(deviceReportSchema),
});

export type ReportDocument = z.infer<typeof reportDocumentSchema>;
export type DeviceReport = z.infer<typeof deviceReportSchema>;
export type MomentFiguresJson = z.infer<typeof momentFiguresSchema>;
export type OomExplanationJson = z.infer<typeof oomExplanationSchema>;

export interface ReportOptions {
  /** Indexes into snapshot.devices to report on (default: all, in order). */
  devices?: number[];
  /** A moment chosen by the user: its figures go into that device's `atMoment`. */
  moment?: { deviceIndex: number; event: number };
  /** Evenly spaced moments of the fragmentation series (default SERIES_SAMPLES). */
  seriesSamples?: number;
}

export function buildReportDocument(
  snapshot: AnalyzedSnapshot,
  options: ReportOptions = {},
): ReportDocument {
  const deviceIndexes = reportedDeviceIndexes(snapshot, options);
  return {
    schema: REPORT_SCHEMA,
    generator: REPORT_GENERATOR,
    file: snapshot.fileName,
    summary: summaryOfSnapshot(snapshot, deviceIndexes),
    devices: buildDeviceReports(snapshot, options),
  };
}

function reportedDeviceIndexes(snapshot: AnalyzedSnapshot, options: ReportOptions): number[] {
  const deviceIndexes = options.devices ?? snapshot.devices.map((_device, index) => index);
  for (const index of deviceIndexes) {
    if (snapshot.devices[index] === undefined) throw new RangeError(`no device at index ${index}`);
  }
  return deviceIndexes;
}

/**
 * The findings per reported device, typed and camelCase: what the report document carries and
 * what the report's text is written from (the text never reads the document back).
 */
export function buildDeviceReports(
  snapshot: AnalyzedSnapshot,
  options: ReportOptions = {},
): DeviceReport[] {
  return reportedDeviceIndexes(snapshot, options).map((deviceIndex) => {
    // The device's own index (built once, kept with it): the page's, when it built one already.
    const index = allocatorStateIndexOf(snapshot, snapshot.devices[deviceIndex]!);
    const chosen =
      options.moment !== undefined && options.moment.deviceIndex === deviceIndex
        ? options.moment.event
        : null;
    return deviceReport(snapshot, deviceIndex, index, chosen, options.seriesSamples);
  });
}

/** The `allocscope.summary/1` document of the view (its devices limited to those reported). */
export function summaryOfSnapshot(
  snapshot: AnalyzedSnapshot,
  deviceIndexes: readonly number[],
): SummaryDocument {
  const figures = snapshotFiguresOfAnalyzed(snapshot);
  return summaryDocumentOf({
    ...figures,
    devices: deviceIndexes.map((index) => figures.devices[index]!),
  });
}

function deviceReport(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  index: AllocatorStateIndex,
  chosenMoment: number | null,
  samples = SERIES_SAMPLES,
): DeviceReport {
  const device = snapshot.devices[deviceIndex]!;
  const threshold = smallHoleThreshold(device);
  if (!recordsSegments(snapshot)) {
    const holders = explanationJson(snapshot, explainPeak(snapshot, deviceIndex, index)).holders;
    return {
      device: device.device,
      smallHoleThresholdBytes: threshold,
      atPeak: null,
      atMoment: null,
      fragmentationSeries: null,
      ooms: [],
      whatIf: null,
      allocatorNotRecorded: NO_SEGMENTS_IN_TRACE,
      holdersAtPeak: holders,
    };
  }
  const peak = device.figures.active.peakEventIndex;
  const ooms = explainOoms(snapshot, deviceIndex, index);
  const whatIf = ooms.length === 0 ? explainPeak(snapshot, deviceIndex, index) : null;
  const include = [peak, ...device.ooms.map((oom) => oom.eventIndex)];
  if (chosenMoment !== null) include.push(clampMoment(device, chosenMoment));
  const moments = sampleMoments(device.traceLength, samples, include);
  const series = fragmentationSeries(index, moments, threshold);
  return {
    device: device.device,
    smallHoleThresholdBytes: threshold,
    atPeak: momentFigures(snapshot, device, index.stateAt(peak), threshold),
    atMoment:
      chosenMoment === null
        ? null
        : momentFigures(
            snapshot,
            device,
            index.stateAt(clampMoment(device, chosenMoment)),
            threshold,
          ),
    fragmentationSeries: {
      smallHoleThresholdBytes: series.smallHoleThresholdBytes,
      moments: Array.from(series.moments),
      timeUs: Array.from(series.moments, (event) => eventTimeUs(device, event)),
      reservedBytes: Array.from(series.reservedBytes),
      activeBytes: Array.from(series.activeBytes),
      cachedFreeBytes: Array.from(series.cachedFreeBytes),
      largestFreeBytes: Array.from(series.largestFreeBytes),
      smallFreeBytes: Array.from(series.smallFreeBytes),
      internalWasteBytes: Array.from(series.internalWasteBytes),
      freeBlockCount: Array.from(series.freeBlockCount),
    },
    ooms: ooms.map((explanation) => explanationJson(snapshot, explanation)),
    whatIf: whatIf === null ? null : explanationJson(snapshot, whatIf),
  };
}

function clampMoment(device: AnalyzedDevice, event: number): number {
  return Math.max(-1, Math.min(device.traceLength - 1, Math.trunc(event)));
}

/** Figures of the state at one moment: totals and per (pool, stream, segment type). */
export function momentFigures(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  state: AllocatorState,
  threshold: number,
): MomentFiguresJson {
  return {
    event: state.event,
    timeUs: eventTimeUs(device, state.event),
    totals: figuresJson(figuresOfState(state, threshold)),
    groups: figuresByGroup(state, threshold).map((group) => groupJson(snapshot, group)),
  };
}

function figuresJson(f: MemoryFigures): MemoryFigures {
  return {
    segmentCount: f.segmentCount,
    reservedBytes: f.reservedBytes,
    activeBytes: f.activeBytes,
    blockBytes: f.blockBytes,
    internalWasteBytes: f.internalWasteBytes,
    cachedFreeBytes: f.cachedFreeBytes,
    largestFreeBytes: f.largestFreeBytes,
    freeBlockCount: f.freeBlockCount,
    smallFreeBytes: f.smallFreeBytes,
    smallHoleThresholdBytes: f.smallHoleThresholdBytes,
  };
}

function groupJson(
  snapshot: AnalyzedSnapshot,
  group: GroupFigures,
): z.infer<typeof groupFiguresSchema> {
  return {
    pool: poolIdAt(snapshot.pools, group.poolIndex),
    stream: snapshot.streams[group.streamId] ?? 0,
    segmentType: segmentTypeName(group.segmentType),
    ...figuresJson(group),
  };
}

function explanationJson(snapshot: AnalyzedSnapshot, e: OomExplanation): OomExplanationJson {
  return {
    ...e,
    holders: e.holders.map((holder) => ({
      stackId: holder.stackId,
      topFrame: holder.topFrame,
      bytes: holder.bytes,
      count: holder.count,
      frames: framesOfStack(snapshot, holder.stackId),
      stacks: holder.stacks,
    })),
  };
}
