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
  BACKWARD_FRAME,
  compileRules,
  DEFAULT_CATEGORY_RULES,
  type CategoryRules,
  type CompiledRule,
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
  const factsOf = (stackId: number): StackFacts => {
    let facts = factsByStack.get(stackId);
    if (facts === undefined) {
      facts = stackFacts(view, stackId, compiled);
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

function stackFacts(
  view: Pick<AnalyzedSnapshot, 'frames' | 'stacks'>,
  stackId: number,
  compiled: readonly CompiledRule[],
): StackFacts {
  const frameIds = stackFrameIds(view, stackId);
  const texts = Array.from(frameIds, (id) =>
    frameSearchText(view.frames.filename[id]!, view.frames.line[id]!, view.frames.name[id]!),
  );
  const label = stackLabel(view, stackId);
  return {
    inBackward: texts.some((text) => BACKWARD_FRAME.test(text)),
    stackHolds: compiled.map(
      (rule) =>
        (rule.frame === null || texts.some((text) => rule.frame!.test(text))) &&
        (rule.label === null || (label !== null && rule.label.test(label))),
    ),
  };
}
