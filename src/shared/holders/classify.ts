// Every allocation of a device in a category (./categories.ts) by a set of rules
// (./category-rules.ts): the file's own `category` when it names one of ours, else the first rule
// whose conditions all hold, else "unknown". Conditions on the stack are tested once per distinct
// stack (thousands), not per allocation (millions).

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { derivedKey, type DerivedKey } from '../analyzed/derived-cache';
import { stackLabel } from '../analysis/user-frame';
import { NO_STRING } from '../snapshot/model';
import { stackFrameIds } from '../snapshot/stack-source';
import { CATEGORIES, categoryOfFileText, type Category } from './categories';
import {
  compileRules,
  DEFAULT_CATEGORY_RULES,
  type CategoryRules,
  type CompiledRule,
  isBackwardFrameText,
} from './category-rules';

/** Index into CATEGORIES per allocation row. */
export type CategoryColumn = Uint8Array;

const UNKNOWN = CATEGORIES.indexOf('unknown');

// One classification per device and rules document, built on first use.
const keysByRules = new WeakMap<CategoryRules, DerivedKey<CategoryColumn>>();

/** The category of each allocation of `device` under `rules` (cached per device and rules). */
export function categoriesOf(
  view: Pick<AnalyzedSnapshot, 'frames' | 'stacks' | 'strings'>,
  device: AnalyzedDevice,
  rules: CategoryRules = DEFAULT_CATEGORY_RULES,
): CategoryColumn {
  let key = keysByRules.get(rules);
  if (key === undefined) {
    key = derivedKey<CategoryColumn>('categories');
    keysByRules.set(rules, key);
  }
  return device.derived.get(key, () => classifyAllocations(view, device, rules));
}

export function categoryAt(column: CategoryColumn, row: number): Category {
  return CATEGORIES[column[row]!] ?? 'unknown';
}

/** What a rule can ask about one stack, computed once per stack. */
interface StackFacts {
  /** Per rule: its frame and label conditions hold (true when it has none). */
  stackHolds: boolean[];
  inBackward: boolean;
}

export function classifyAllocations(
  view: Pick<AnalyzedSnapshot, 'frames' | 'stacks' | 'strings'>,
  device: AnalyzedDevice,
  rules: CategoryRules,
): CategoryColumn {
  const compiled = compileRules(rules);
  const table = device.allocations;
  const column = new Uint8Array(table.count).fill(UNKNOWN);
  const factsByStack = new Map<number, StackFacts>();
  const longFrames = new Map<number, FrameFacts>();
  const factsOf = (stackId: number): StackFacts => {
    let facts = factsByStack.get(stackId);
    if (facts === undefined) {
      facts = stackFacts(view, stackId, compiled, longFrames);
      factsByStack.set(stackId, facts);
    }
    return facts;
  };
  const categoryIds = device.details?.categoryId ?? null;
  const traceLength = Math.max(1, device.traceLength);
  for (let row = 0; row < table.count; row++) {
    const start = table.startEvent[row]!;
    const fileText = fileCategoryText(view, categoryIds, start);
    const fromFile = fileText === null ? null : categoryOfFileText(fileText);
    if (fromFile !== null) {
      column[row] = CATEGORIES.indexOf(fromFile);
      continue;
    }
    const end = table.endEvent[row]!;
    const lifetime = Math.min(end, device.traceLength) - start;
    const facts = factsOf(table.stackId[row]!);
    for (let r = 0; r < compiled.length; r++) {
      const rule = compiled[r]!;
      const match = rule.match;
      if (!facts.stackHolds[r]) continue;
      if (rule.fileCategory !== null && (fileText === null || !rule.fileCategory.test(fileText)))
        continue;
      if (match.in_backward !== undefined && match.in_backward !== facts.inBackward) continue;
      if (match.alive_at_end !== undefined && match.alive_at_end !== end >= device.traceLength)
        continue;
      if (match.made_before_trace !== undefined && match.made_before_trace !== start < 0) continue;
      if (match.min_lifetime_events !== undefined && lifetime < match.min_lifetime_events) continue;
      if (match.max_lifetime_events !== undefined && lifetime > match.max_lifetime_events) continue;
      if (
        match.min_lifetime_share !== undefined &&
        lifetime / traceLength < match.min_lifetime_share
      )
        continue;
      if (
        match.max_lifetime_share !== undefined &&
        lifetime / traceLength > match.max_lifetime_share
      )
        continue;
      column[row] = CATEGORIES.indexOf(rule.category);
      break;
    }
  }
  return column;
}

function fileCategoryText(
  view: Pick<AnalyzedSnapshot, 'strings'>,
  categoryIds: Int32Array | null,
  startEvent: number,
): string | null {
  if (categoryIds === null || startEvent < 0) return null;
  const id = categoryIds[startEvent] ?? NO_STRING;
  return id === NO_STRING ? null : (view.strings?.[id] ?? null);
}

/** "filename:line name": the text frame conditions (and the search box) test. */
export function frameSearchText(filename: string, line: number, name: string): string {
  return `${filename}:${line} ${name}`;
}

/** What the rules ask of one frame: part of the backward pass; each rule's frame condition. */
interface FrameFacts {
  inBackward: boolean;
  holds: boolean[];
}

/**
 * Frames whose text is longer than this are tested once per classification, not once per stack
 * they are in: a file may put one frame with a name of megabytes into every stack, for a few
 * bytes each. Shorter ones cost little to test again, and caching every frame would cost memory
 * in proportion to all the frames of a large file.
 */
const LONG_FRAME_TEXT = 1024;

function frameFacts(
  view: Pick<AnalyzedSnapshot, 'frames'>,
  frameId: number,
  compiled: readonly CompiledRule[],
): FrameFacts {
  const text = frameSearchText(
    view.frames.filename[frameId]!,
    view.frames.line[frameId]!,
    view.frames.name[frameId]!,
  );
  return {
    inBackward: isBackwardFrameText(text),
    holds: compiled.map((rule) => rule.frame !== null && rule.frame.test(text)),
  };
}

function stackFacts(
  view: Pick<AnalyzedSnapshot, 'frames' | 'stacks'>,
  stackId: number,
  compiled: readonly CompiledRule[],
  longFrames: Map<number, FrameFacts>,
): StackFacts {
  const { filename, line, name } = view.frames;
  // Per frame its text, or for a long one its facts computed once.
  const frames = Array.from(stackFrameIds(view, stackId), (id): string | FrameFacts => {
    if (filename[id]!.length + name[id]!.length <= LONG_FRAME_TEXT)
      return frameSearchText(filename[id]!, line[id]!, name[id]!);
    let facts = longFrames.get(id);
    if (facts === undefined) {
      facts = frameFacts(view, id, compiled);
      longFrames.set(id, facts);
    }
    return facts;
  });
  const label = stackLabel(view, stackId);
  return {
    inBackward: frames.some((frame) =>
      typeof frame === 'string' ? isBackwardFrameText(frame) : frame.inBackward,
    ),
    stackHolds: compiled.map(
      (rule, r) =>
        (rule.frame === null ||
          frames.some((frame) =>
            typeof frame === 'string' ? rule.frame!.test(frame) : frame.holds[r],
          )) &&
        (rule.label === null || (label !== null && rule.label.test(label))),
    ),
  };
}
