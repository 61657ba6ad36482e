// What the tooltip, the table and the allocation panel say about one allocation row: figures,
// times and its stack, derived from the view's columns (no DOM, so it is unit-tested in Node).

import { AllocationOrigin, BEFORE_TRACE } from '@shared/analysis/allocation-table';
import { frameFactsOf, shortFrameLabel } from '@shared/analysis/user-frame';
import { frameAt, stackFrameIds, type StackSource } from '@shared/snapshot/stack-source';
import { formatBytes, formatDurationUs, formatExactBytes } from '@shared/format/units';
import {
  frameLocation as frameLocationWords,
  frameText as frameTextWords,
  streamName,
} from '@shared/format/words';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { eventTimeUs } from '@shared/analyzed/device-times';

export interface StackFrame {
  name: string;
  filename: string;
  line: number;
  isFramework: boolean;
  /**
   * The frame in a short line (FrameFacts.shortLabel: shortFrameLabel, at most SHORT_LABEL_CHARS),
   * worded once per frame of the table; absent in frames built by hand.
   */
  short?: string;
  /** The FX graph node a compiled frame ran (`augment_with_fx_traces=True`); absent for others. */
  fx?: FrameFx;
}

export interface FrameFx {
  nodeOp: string | null;
  nodeName: string | null;
  nodeTarget: string | null;
  /** The model source line the node came from. */
  originalTrace: string | null;
}

/** Frames of a stack, innermost first. */
export function stackFrames(source: StackSource, stackId: number): StackFrame[] {
  const fx = source.frames.fx;
  // isFrameworkFrame, tested once per frame of the table (a path may be megabytes long).
  const facts = frameFactsOf(source.frames);
  return Array.from(stackFrameIds(source, stackId), (frameId) => {
    const { filename, line, name } = frameAt(source.frames, frameId);
    const frame: StackFrame = {
      name,
      filename,
      line,
      isFramework: !facts.isUser(frameId),
      short: facts.shortLabel(frameId),
    };
    if (fx !== undefined) {
      const fields: FrameFx = {
        nodeOp: fx.nodeOp[frameId] ?? null,
        nodeName: fx.nodeName[frameId] ?? null,
        nodeTarget: fx.nodeTarget[frameId] ?? null,
        originalTrace: fx.originalTrace[frameId] ?? null,
      };
      if (Object.values(fields).some((value) => value !== null)) frame.fx = fields;
    }
    return frame;
  });
}

/** "call_function aten.mm.default (mm_3)": an FX node in one line; null without one. */
export function fxNodeText(fx: FrameFx | undefined): string | null {
  if (fx === undefined) return null;
  const parts = [fx.nodeOp, fx.nodeTarget].filter((part) => part !== null);
  if (fx.nodeName !== null) parts.push(`(${fx.nodeName})`);
  return parts.length === 0 ? null : parts.join(' ');
}

/** Characters of a frame in a tooltip's list (a name may be megabytes; the panel has it). */
export const TOOLTIP_FRAME_CHARS = 300;

/** The frame in a short line, as lists of frames show it. */
export function shortFrameText(frame: StackFrame): string {
  return frame.short ?? shortFrameLabel(frame);
}

/** "path/to/file.py:12" with the whole path (@shared/format/words). */
export function frameLocation(frame: StackFrame): string {
  return frameLocationWords(frame, 'full');
}

/**
 * What a tooltip lists under the top user frame: the other frames of the user's own code, or,
 * when there are none, the callers of the top frame. At most `limit`.
 */
export function supportingFrames(
  frames: readonly StackFrame[],
  userIndex: number,
  limit: number,
): StackFrame[] {
  const others = frames.filter((frame, index) => index !== userIndex && !frame.isFramework);
  const chosen = others.length > 0 ? others : frames.slice(userIndex + 1);
  return chosen.slice(0, limit);
}

/** "path/to/file.py:12 name" with the whole path: a frame in a copied stack and in the CSV export. */
export function frameText(frame: StackFrame): string {
  return frameTextWords(frame, 'full');
}

/** The stack as plain text, one frame a line, as Python tracebacks list them (innermost first). */
export function stackAsText(frames: readonly StackFrame[]): string {
  return frames.map(frameText).join('\n');
}

export function formatAddress(address: number): string {
  return `0x${Math.trunc(address).toString(16).padStart(12, '0')}`;
}

/** How the chart and tables name the moment after event `event`. */
export function describeEvent(device: AnalyzedDevice, event: number): string {
  if (event < 0) return 'before the trace';
  const time = relativeTimeUs(device, event);
  const index = `event ${formatExactBytes(event)}`;
  return time === null ? index : `${index} · ${formatDurationUs(time)}`;
}

/** Microseconds from the first event to `event`; null without usable times or outside the trace. */
export function relativeTimeUs(device: AnalyzedDevice, event: number): number | null {
  const time = eventTimeUs(device, event);
  const first = eventTimeUs(device, 0);
  return time === null || first === null ? null : time - first;
}

export interface AllocationFacts {
  row: number;
  address: string;
  sizeBytes: number;
  /** Rounded size of the block when known. */
  blockSizeBytes: number | null;
  /** Index of the alloc entry; null when made before the trace. */
  allocEvent: number | null;
  /** Index of the entry that freed it; null when still alive at the end. */
  freeEvent: number | null;
  allocText: string;
  freeText: string;
  /** Duration between alloc and free, or an "at least" bound when one end is outside the trace. */
  lifetimeText: string;
  /** Lifetime in microseconds for sorting (a lower bound when open-ended); NaN without times. */
  lifetimeUs: number;
  /** Lifetime in events (a lower bound when open-ended). */
  lifetimeEvents: number;
  stream: string;
  origin: string;
  stackId: number;
}

const ORIGIN_TEXT: Record<number, string> = {
  [AllocationOrigin.trace]: 'allocated in the trace',
  [AllocationOrigin.freedInTrace]: 'allocated before the trace (seen through its free)',
  [AllocationOrigin.liveThroughout]: 'allocated before the trace, alive at the end',
};

export function allocationFacts(
  snapshot: Pick<AnalyzedSnapshot, 'streams'>,
  device: AnalyzedDevice,
  row: number,
): AllocationFacts {
  const table = device.allocations;
  const start = table.startEvent[row]!;
  const end = table.endEvent[row]!;
  const length = device.traceLength;
  const allocEvent = start === BEFORE_TRACE ? null : start;
  const freeEvent = end >= length ? null : end;
  const blockSize = table.blockSizeBytes[row]!;
  const firstEvent = allocEvent ?? 0;
  const lastEvent = freeEvent ?? Math.max(0, length - 1);
  const startUs = relativeTimeUs(device, firstEvent);
  const endUs = relativeTimeUs(device, lastEvent);
  const lifetimeUs = startUs !== null && endUs !== null ? endUs - startUs : NaN;
  // Trace entries after which it was alive: [start, end) clipped to the trace.
  const lifetimeEvents = Math.max(0, Math.min(end, length) - Math.max(start, 0));
  const eventsText = `${formatExactBytes(lifetimeEvents)} ${lifetimeEvents === 1 ? 'event' : 'events'}`;
  const openEnded = allocEvent === null || freeEvent === null;
  const bound = openEnded ? '≥ ' : '';
  const lifetimeText =
    length === 0
      ? 'whole snapshot'
      : Number.isNaN(lifetimeUs)
        ? `${bound}${eventsText}`
        : `${bound}${formatDurationUs(lifetimeUs)} (${eventsText})`;
  return {
    row,
    address: formatAddress(table.address[row]!),
    sizeBytes: table.sizeBytes[row]!,
    blockSizeBytes: Number.isFinite(blockSize) ? blockSize : null,
    allocEvent,
    freeEvent,
    allocText: allocEvent === null ? 'before the trace' : describeEvent(device, allocEvent),
    freeText: freeEvent === null ? 'alive at the end' : describeEvent(device, freeEvent),
    lifetimeText,
    lifetimeUs,
    lifetimeEvents,
    stream: streamName(snapshot.streams[table.streamId[row]!]),
    origin: ORIGIN_TEXT[table.origin[row]!] ?? 'unknown',
    stackId: table.stackId[row]!,
  };
}

/** "12.0 MiB (12,582,912 B)". */
export function bytesWithExact(bytes: number): string {
  return `${formatBytes(bytes)} (${formatExactBytes(bytes)} B)`;
}
