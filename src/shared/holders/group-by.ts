// The memory alive at a moment, grouped: by stack, by the stack's label (the top user frame), by
// the file of that frame, by the op that made it (profiler traces), by category, by the annotation span the allocation was made in, by
// stream, pool or user metadata. Every allocation alive at the moment is in exactly one group, so
// the groups' bytes add up to the active bytes the timeline shows there. The same code answers
// the app's table and `allocscope top`.

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { pairAnnotations, type AnnotationSpan } from '../chart/annotation-spans';
import { describeStack, isUserFrame, stackLabelOfStack } from '../analysis/user-frame';
import { NO_STACK_TEXT, poolNameAt, streamNameAt } from '../format/words';
import { formatBytes } from '../format/units';
import { NO_LIST, NO_STRING } from '../snapshot/model';
import { stringList } from '../analyzed/allocation-details';
import { allocationOp, recordsOps } from '../analyzed/allocation-op';
import { frameAt, stackFrameIds } from '../snapshot/stack-source';
import { CATEGORY_NAMES } from './categories';
import { flamePath } from './flame-tree';
import { categoriesOf, categoryAt } from './classify';
import { DEFAULT_CATEGORY_RULES, type CategoryRules } from './category-rules';

export const GROUP_BYS = [
  'stack',
  'frame',
  'file',
  'op',
  'category',
  'size',
  'annotation',
  'stream',
  'pool',
  'metadata',
  'compile_context',
  'forward_frame',
] as const;

export type GroupBy = (typeof GROUP_BYS)[number];

/** What each grouping is called in tables and texts. */
export const GROUP_BY_NAMES: Readonly<Record<GroupBy, string>> = {
  stack: 'stack',
  frame: 'top user frame',
  file: 'file',
  op: 'op',
  category: 'category',
  size: 'size class',
  annotation: 'annotation span',
  stream: 'stream',
  pool: 'pool',
  metadata: 'user metadata',
  compile_context: 'compile context',
  forward_frame: 'created in forward at',
};

/**
 * Whether grouping by `by` says anything about this device: by op only where the file records
 * ops (a profiler trace); a snapshot's allocations would all fall in one group. The page offers
 * these; the CLI takes every grouping and names the one group.
 */
export function groupingApplies(device: Pick<AnalyzedDevice, 'details'>, by: string): boolean {
  return by !== 'op' || recordsOps(device);
}

export interface HolderGroup {
  /** What the group is, in the words of its grouping (unique within one grouping). */
  key: string;
  /**
   * The key as a table shows it: the same, except for a stack, which reads as its path of the
   * user's frames and its label ("train.py:40 main > model.py:62 forward"), outermost first.
   */
  title: string;
  bytes: number;
  allocations: number;
  /** Labels of the stacks inside, largest first (at most TOP_FRAMES). */
  topFrames: string[];
  /** Rows of the allocation table in the group. */
  rows: number[];
}

/** How many stack labels a group lists. */
export const TOP_FRAMES = 3;

export const NO_ANNOTATION = '(no annotation span)';
export const NO_METADATA = '(no user metadata)';
export const NO_PYTHON_FILE = '(no Python file)';
export const NO_COMPILE_CONTEXT = '(no compile context)';
export const NO_FORWARD_FRAMES = '(no forward_frames)';
/** A trace's allocation made outside every op. */
export const OUTSIDE_OPS = '(outside every op)';
/** A snapshot: the allocator records no op (its stacks hold the C++ frames instead). */
export const NO_OPS_RECORDED = '(no ops recorded: a snapshot)';

export interface GroupOptions {
  rules?: CategoryRules;
}

export type HolderSource = Pick<
  AnalyzedSnapshot,
  'frames' | 'stacks' | 'strings' | 'streams' | 'pools' | 'annotations' | 'forwardFrames'
>;

/** The key of each row under `by`, for the rows given (a function built once per grouping). */
export function groupKeyOf(
  snapshot: HolderSource,
  device: AnalyzedDevice,
  by: GroupBy,
  options: GroupOptions = {},
): (row: number) => string {
  const table = device.allocations;
  switch (by) {
    case 'stack': {
      // Once per stack, not per row: a key holds every frame's text, and thousands of rows
      // share a stack (a fuzzed 760 KB frame name made each row cost a megabyte of text).
      const keyOfStack = stackKeys(snapshot);
      return (row) => keyOfStack(table.stackId[row]!);
    }
    case 'frame':
      return (row) => describeStack(snapshot, table.stackId[row]!);
    case 'file':
      return (row) => fileKey(snapshot, table.stackId[row]!);
    case 'op': {
      if (!recordsOps(device)) return () => NO_OPS_RECORDED;
      return (row) => allocationOp(snapshot, device, row) ?? OUTSIDE_OPS;
    }
    case 'category': {
      const column = categoriesOf(snapshot, device, options.rules ?? DEFAULT_CATEGORY_RULES);
      return (row) => CATEGORY_NAMES[categoryAt(column, row)];
    }
    case 'size':
      return (row) => sizeClassKey(table.sizeBytes[row]!);
    case 'annotation':
      return annotationKeyOf(snapshot, device);
    case 'stream':
      return (row) => streamNameAt(snapshot.streams, table.streamId[row]!);
    case 'pool': {
      const pools = device.details?.poolIndex ?? null;
      return (row) => {
        const start = table.startEvent[row]!;
        const index = pools === null || start < 0 ? NO_STRING : pools[start]!;
        return poolNameAt(snapshot.pools, index === NO_STRING ? 0 : index);
      };
    }
    case 'metadata': {
      const ids = device.details?.userMetadataId ?? null;
      return (row) => {
        const start = table.startEvent[row]!;
        const id = ids === null || start < 0 ? NO_STRING : ids[start]!;
        return id === NO_STRING ? NO_METADATA : (snapshot.strings?.[id] ?? NO_METADATA);
      };
    }
    case 'compile_context': {
      const ids = device.details?.compileContextId ?? null;
      return (row) => {
        const start = table.startEvent[row]!;
        const id = ids === null || start < 0 ? NO_STRING : ids[start]!;
        const text = id === NO_STRING ? undefined : snapshot.strings?.[id];
        return text === undefined || text === '' || text === 'N/A' ? NO_COMPILE_CONTEXT : text;
      };
    }
    case 'forward_frame': {
      const entryLists = device.details?.forwardFramesId ?? null;
      const blockLists = device.details?.blockForwardFramesId ?? null;
      const byList = new Map<number, string>();
      return (row) => {
        const start = table.startEvent[row]!;
        let list = start >= 0 && entryLists !== null ? entryLists[start]! : NO_LIST;
        if (list === NO_LIST && blockLists !== null) list = blockLists[row]!;
        if (list === NO_LIST) return NO_FORWARD_FRAMES;
        let key = byList.get(list);
        if (key === undefined) {
          key = forwardFrameKey(stringList(snapshot, list));
          byList.set(list, key);
        }
        return key;
      };
    }
  }
}

/**
 * The frame of `forward_frames` (strings, innermost first, "model.py:62 in forward") that is the
 * user's own code, by the label rule's test on its file; else the innermost one.
 */
function forwardFrameKey(frames: readonly string[]): string {
  if (frames.length === 0) return NO_FORWARD_FRAMES;
  const user = frames.find((frame) => isUserFrame(frame.split(':')[0] ?? ''));
  return user ?? frames[0]!;
}

/** Groups of `rows` under `by`, largest first (then by key, so the order is stable). */
export function groupRows(
  snapshot: HolderSource,
  device: AnalyzedDevice,
  rows: ArrayLike<number>,
  by: GroupBy,
  options: GroupOptions = {},
): HolderGroup[] {
  const keyOf = groupKeyOf(snapshot, device, by, options);
  const table = device.allocations;
  const groups = new Map<string, HolderGroup & { stackBytes: Map<number, number> }>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const key = keyOf(row);
    let group = groups.get(key);
    if (group === undefined) {
      group = {
        key,
        title: by === 'stack' ? stackTitle(snapshot, table.stackId[row]!) : key,
        bytes: 0,
        allocations: 0,
        topFrames: [],
        rows: [],
        stackBytes: new Map(),
      };
      groups.set(key, group);
    }
    const bytes = table.sizeBytes[row]!;
    group.bytes += bytes;
    group.allocations++;
    group.rows.push(row);
    const stackId = table.stackId[row]!;
    group.stackBytes.set(stackId, (group.stackBytes.get(stackId) ?? 0) + bytes);
  }
  const result: HolderGroup[] = [];
  for (const { stackBytes, ...group } of groups.values()) {
    // Labels of the stacks inside, merged by label (two stacks may share one).
    const byLabel = new Map<string, number>();
    for (const [stackId, bytes] of stackBytes) {
      const label = describeStack(snapshot, stackId);
      byLabel.set(label, (byLabel.get(label) ?? 0) + bytes);
    }
    group.topFrames = [...byLabel]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, TOP_FRAMES)
      .map(([label]) => label);
    result.push(group);
  }
  return result.sort((a, b) => b.bytes - a.bytes || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The size class of a request: powers of two, "1.0 MiB – 2.0 MiB" (the lower bound included), so
 * that "what changed" can say which sizes grew; below 512 bytes one class.
 */
export function sizeClassKey(bytes: number): string {
  if (bytes < 512) return '< 512 B';
  const lower = 2 ** Math.floor(Math.log2(bytes));
  return `${formatBytes(lower)} – ${formatBytes(lower * 2)}`;
}

/** A stack as one line: its frames outermost first, "a.py:1 f;b.py:2 g" (the folded format's). */
export function stackKey(
  snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks'>,
  stackId: number,
): string {
  return stackKeys(snapshot)(stackId);
}

/**
 * stackKey for many stacks: each stack's key and each frame's text made once (stacks share
 * frames, and a frame's text is copied twice by its escaping).
 */
export function stackKeys(
  snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks'>,
  /** What each frame's text becomes in the key (once per frame: the folded text escapes it). */
  frameTextOf: (text: string) => string = (text) => text,
): (stackId: number) => string {
  const byStack = new Map<number, string>();
  const byFrame = new Map<number, string>();
  const frameText = (frameId: number): string => {
    let text = byFrame.get(frameId);
    if (text === undefined) {
      text = frameTextOf(foldedFrameText(snapshot, frameId));
      byFrame.set(frameId, text);
    }
    return text;
  };
  return (stackId) => {
    let key = byStack.get(stackId);
    if (key === undefined) {
      const frameIds = stackFrameIds(snapshot, stackId);
      const parts: string[] = [];
      for (let i = frameIds.length - 1; i >= 0; i--) parts.push(frameText(frameIds[i]!));
      key = parts.length === 0 ? NO_STACK_TEXT : parts.join(';');
      byStack.set(stackId, key);
    }
    return key;
  };
}

/** One frame in folded-stack text: "file.py:12 name" or the C++ symbol; never a ';'. */
export function foldedFrameText(
  snapshot: Pick<AnalyzedSnapshot, 'frames'>,
  frameId: number,
): string {
  const { filename, line, name } = frameAt(snapshot.frames, frameId);
  const text = filename === '' || filename === '??' ? name : `${filename}:${line} ${name}`;
  return text.replaceAll(';', ',').replaceAll('\n', ' ');
}

/** A stack in a line for tables: its flame-graph path (user frames and the label), outermost first. */
export function stackTitle(
  snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks'>,
  stackId: number,
): string {
  return flamePath(snapshot, stackId)
    .map((step) => step.name)
    .join(' > ');
}

function fileKey(snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks'>, stackId: number): string {
  const label = stackLabelOfStack(snapshot, stackId);
  if (label === null) return NO_STACK_TEXT;
  if (label.kind === 'autograd' || label.kind === 'op' || label.kind === 'native')
    return NO_PYTHON_FILE;
  const frameId = stackFrameIds(snapshot, stackId)[label.index]!;
  return snapshot.frames.filename[frameId]!;
}

/**
 * The innermost annotation span (external_annotations: ProfilerStep#3, Optimizer.step) open when
 * the allocation was made; allocations from before the trace or without times have none.
 */
function annotationKeyOf(
  snapshot: Pick<AnalyzedSnapshot, 'annotations'>,
  device: AnalyzedDevice,
): (row: number) => string {
  const spans = pairAnnotations(snapshot.annotations, device.device);
  const timeUs = device.timeUs;
  const table = device.allocations;
  if (spans.length === 0 || timeUs === null) return () => NO_ANNOTATION;
  return (row) => {
    const start = table.startEvent[row]!;
    if (start < 0) return NO_ANNOTATION;
    return innermostSpanAt(spans, timeUs[start]!)?.name ?? NO_ANNOTATION;
  };
}

/** The open span that started last (the innermost) at `timeUs`; spans are in start order. */
function innermostSpanAt(spans: readonly AnnotationSpan[], timeUs: number): AnnotationSpan | null {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (spans[middle]!.startUs <= timeUs) low = middle + 1;
    else high = middle;
  }
  for (let i = low - 1; i >= 0; i--) if (timeUs < spans[i]!.endUs) return spans[i]!;
  return null;
}
